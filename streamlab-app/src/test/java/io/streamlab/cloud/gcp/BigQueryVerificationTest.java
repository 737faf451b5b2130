package io.streamlab.cloud.gcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableLatency;
import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verdict;
import io.streamlab.bench.Verification;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.store.bigquery.BigQueryTypes;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/**
 * The verification of a --cloud=gcp run, its GoogleSQL as sent to BigQuery, on a FAKE BigQuery
 * table (DuckDB) of known rows: lost, duplicated, unexpected and dead-lettered rows are counted
 * as in a local run's table (TableVerifierTest's fixture), and give the same verdicts.
 */
class BigQueryVerificationTest {
  private static final Schema EVENT = SchemaBuilder.record("E").fields().requiredString("s").endRecord();
  private final GcpPlan plan = new GcpPlan("my-project", "us-central1", "20261123-160000-abcd", 1, "n2-standard-2",
      java.util.List.of(), Duration.ofMinutes(1));

  private FakeGcp tables() throws Exception {
    FakeGcp fakes = new FakeGcp();
    fakes.bigQuery().createDataset(plan.project(), plan.dataset(), plan.region());
    fakes.bigQuery().createTable(plan.table(), GcpResources.tableSchema(EVENT));
    fakes.bigQuery().createTable(plan.deadLetterTable(), BigQueryTypes.tableSchema(DeadLetters.SCHEMA));
    return fakes;
  }

  private Verification verify(FakeGcp fakes, Map<Integer, Long> expected, Set<Integer> measured) throws Exception {
    return TableVerifier.verify(sql -> fakes.bigQuery().query(plan.project(), sql), DataflowIngestion.dialect(plan),
        plan.table().table(), true, expected, measured);
  }

  @Test
  void countsEveryKindOfMissAsALocalRunDoes() throws Exception {
    try (FakeGcp fakes = tables()) {
      FakeBigQuery bq = fakes.bigQuery();
      String d = plan.dataset(), t = plan.table().table();
      for (long s = 0; s < 10; s++) if (s != 3 && s != 7) bq.insert(d, t, 0, s, 1); // 0:3 and 0:7 lost...
      bq.insert(d, t, 0, 2, 1);
      bq.insert(d, t, 0, 2, 1); // ...0:2 written three times: 2 duplicates
      for (long s = 0; s < 4; s++) bq.insert(d, t, 1, s, 1); // 1:4 is dead-lettered
      bq.insertDeadLetter(d, plan.deadLetterTable().table(), 1, 4, "decode");
      bq.insert(d, t, 1, 99, 1); // never sent: unexpected
      for (long s = 0; s < 3; s++) bq.insert(d, t, 1000, s, 1);
      Verification v = verify(fakes, Map.of(0, 10L, 1, 5L, 1000, 3L), Set.of(0, 1));
      assertEquals(18, v.expected());
      assertEquals(2, v.lost(), "0:3 and 0:7");
      assertEquals(2, v.duplicated(), "0:2 twice more");
      assertEquals(2, v.duplicatedInTable());
      assertEquals(1, v.unexpected(), "1:99");
      assertEquals(Map.of("decode", 1L), v.failedByStage());
      assertEquals(18, v.tableRows());
      assertEquals(15, v.measuredRows(), "rows of producers 0 and 1 only");
      assertTrue(v.lastWriteMicros() > 0, "the write time is the table's default");
      assertEquals(Verdict.LOST, Verdict.of(Verdict.Promise.EXACTLY_ONCE, v).exitCode());
      assertTrue(fakes.log().queries().stream().allMatch(q -> q.contains("`my-project.sl_20261123_160000_abcd.")),
          "every query names the tables by their BigQuery path: " + fakes.log().queries());
    }
  }

  @Test
  void duplicatesFailExactlyOnceOnlyAndLatencyIsReadFromTheTable() throws Exception {
    try (FakeGcp fakes = tables()) {
      String d = plan.dataset(), t = plan.table().table();
      long now = System.currentTimeMillis() * 1000;
      for (long s = 0; s < 20; s++) fakes.bigQuery().insert(d, t, 0, s, now - 2_000_000); // sent 2 s before
      fakes.bigQuery().insert(d, t, 0, 5, now);
      Verification v = verify(fakes, Map.of(0, 20L), Set.of(0));
      assertEquals(0, v.lost());
      assertEquals(1, v.duplicatedInTable());
      assertEquals(Verdict.DUPLICATED, Verdict.of(Verdict.Promise.EXACTLY_ONCE, v).exitCode());
      assertEquals(Verdict.OK, Verdict.of(Verdict.Promise.AT_LEAST_ONCE, v).exitCode());
      TableLatency l = TableLatency.read(sql -> fakes.bigQuery().query(plan.project(), sql),
          DataflowIngestion.dialect(plan), t, Set.of(0));
      assertEquals(20, l.measured().getTotalCount(), "each event once, at its first write");
      long p50 = l.measured().getValueAtPercentile(50);
      assertTrue(p50 >= 1_900_000 && p50 < 60_000_000, "about 2 s after its send time: " + p50);
    }
  }
}
