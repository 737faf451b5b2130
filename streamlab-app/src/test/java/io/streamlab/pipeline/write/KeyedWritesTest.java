package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.IngestPipeline;
import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.KafkaBroker;
import io.streamlab.store.model.WarehouseModel;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keyed write methods' semantics, end to end (embedded Kafka -> Beam -> DuckDB file), with the
 * warehouse model on where round trips matter: keys bound the requests in flight, auto-sharding
 * records its shards, the Storage Write API's trigger holds appends back, and a restarted
 * exactly-once ingestion that re-reads its rows writes none twice.
 */
class KeyedWritesTest {
  private static final int EVENTS = 3_000;
  private static final Schema SCHEMA = SchemaLoader.loadDefault();
  /** Short round trips (still far longer than a DuckDB append) keep the test quick. */
  private static final WarehouseModel MODEL = WarehouseModel.bigquery(20, 30);
  @TempDir static Path dir;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  private static Map<Integer, Long> sent;

  @BeforeAll
  static void setUp() throws Exception {
    sent = kafka.generatedTopic("events", 2, SCHEMA, 5, EVENTS);
  }

  @AfterAll
  static void tearDown() throws Exception {
  }

  private static WriteSettings streamingInserts(int keys, boolean auto, int rowsPerRequest) {
    return new WriteSettings(WriteMethod.STREAMING_INSERTS, FormatToStore.TABLE_ROW, keys, auto, rowsPerRequest,
        64 * 1024, 0, 1.0, false, 2, 2_000).withWarehouseModel(MODEL);
  }

  @Test
  void keysBoundTheRequestsInFlight() throws Exception {
    int keys = 4;
    WriteStats.get().resetMaxInFlight();
    long appendsBefore = WriteStats.get().appends();
    Verification v = ingest("keys4", streamingInserts(keys, false, 5), flink(), Duration.ofSeconds(120));
    assertEquals(0, v.lost(), "lost rows");
    assertTrue(WriteStats.get().appends() - appendsBefore >= EVENTS / 5, "requests of at most 5 rows each");
    // each key has many requests waiting, so under this load every key has one in flight, never two
    assertEquals(keys, WriteStats.get().maxInFlight(), "requests in flight at most = keys");
  }

  @Test
  void autoShardingRecordsItsShards() throws Exception {
    Verification v = ingest("auto", streamingInserts(50, true, 5), flink(), Duration.ofSeconds(120));
    assertEquals(0, v.lost(), "lost rows");
    Map<String, Long> status = WriteStats.get().snapshot();
    assertTrue(status.get("activeKeys") >= 1, "active shards recorded: " + status);
    assertTrue(AutoShards.current() >= AutoShards.MIN && AutoShards.current() <= AutoShards.MAX);
    // the shard count auto-sharding chose is a figure of its own, so a run records it every second
    assertEquals(AutoShards.current(), status.get(WriteStats.AUTO_SHARDS), status.toString());
    String line = io.streamlab.pipeline.IngestStatus.current(0).format();
    assertTrue(line.contains("write.activeKeys="), line);
    assertTrue(line.contains("write." + WriteStats.AUTO_SHARDS + "="), line);
    assertEquals(status.get("connections"), io.streamlab.pipeline.IngestStatus.parse(line).write().get("connections"));
  }

  @Test
  void storageWriteTriggerHoldsAppendsBack() throws Exception {
    // batches far larger than the topic: only the trigger (or the end of input) ends a batch
    WriteSettings w = new WriteSettings(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD, 50, false,
        500, 64 * 1024, 2, 3.0, false, 2, 2_000).withWarehouseModel(MODEL);
    long startMicros = System.currentTimeMillis() * 1000;
    // The DirectRunner's time-bounded read hands its rows on when the read ends, so whether the
    // trigger or the end of input ended a batch cannot be told here; what can: no append came
    // before the trigger had passed.
    Verification v = ingestBatched("trigger", w, direct(), Duration.ofSeconds(10), null, 1_000_000);
    assertEquals(0, v.lost(), "lost rows");
    assertEquals(0, v.duplicated(), "duplicated rows");
    long firstWrite = firstWriteMicros("trigger");
    double delaySeconds = (firstWrite - startMicros) / 1e6;
    assertTrue(delaySeconds >= 3.0, "no append before the trigger: first after " + delaySeconds + " s");
  }

  @Test
  void exactlyOnceRestartReReadsAndWritesNothingTwice() throws Exception {
    WriteSettings w = new WriteSettings(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD, 50, false,
        500, 64 * 1024, 2, 1.0, false, 2, 2_000).withWarehouseModel(MODEL);
    Verification first = ingest("replay", w, direct(), Duration.ofSeconds(120));
    assertEquals(0, first.lost());
    assertEquals(0, first.duplicated());
    // a restart: the committed offsets move back over what the write stage's state could hold
    String group = IngestSettings.consumerGroup("events", store(), "replay");
    Map<Integer, Long> moved = RestartRewind.apply(kafka.bootstrapServers(), "events", group,
        RestartRewind.bufferedRowsBound(w, 500));
    assertFalse(moved.isEmpty(), "the first run committed offsets, the restart moves them back");
    Verification again = ingestBatched("replay", w, direct(), Duration.ofSeconds(8), null, 500);
    assertEquals(0, again.lost(), "lost rows after the restart");
    assertEquals(0, again.duplicated(), "rows read again are ignored, not written twice");
  }

  private static RunnerChoice flink() {
    return new RunnerChoice("FlinkRunner", "[local]", 2, 1000, 100, List.of());
  }

  private static RunnerChoice direct() {
    return new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of());
  }

  private static StoreSpec store() {
    return StoreSpec.duckdb(dir.resolve("keyed.duckdb"));
  }

  private static Verification ingest(String table, WriteSettings w, RunnerChoice runner, Duration maxRead)
      throws Exception {
    return ingestBatched(table, w, runner, maxRead, (long) EVENTS, 500);
  }

  private static Verification ingestBatched(String table, WriteSettings w, RunnerChoice runner, Duration maxRead,
      Long maxRecords, int appendBatchSize) throws Exception {
    Pipeline p = Pipeline.create(runner.toOptions());
    IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), "events", SCHEMA, TransportFormat.THRIFT,
        store(), table, appendBatchSize, maxRecords, maxRead, w));
    p.run().waitUntilFinish();
    try (TableStore s = store().open(); Connection c = s.openQueryConnection()) {
      return TableVerifier.verify(c, table, sent, java.util.Set.of());
    }
  }

  private static long firstWriteMicros(String table) throws Exception {
    try (TableStore s = store().open(); Connection c = s.openQueryConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT min(sl_write_time_us) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
