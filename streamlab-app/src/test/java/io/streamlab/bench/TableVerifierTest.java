package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lost / duplicated / unexpected / dead-lettered counting on a real DuckDB table with known rows. */
class TableVerifierTest {
  @TempDir Path dir;

  private static final Schema EVENT = SchemaBuilder.record("E").fields().requiredString("s").endRecord();
  static final Schema ROW = SystemColumns.tableRecordSchema(EVENT);

  /** A table row of event (producer, seq), for tables of known content. */
  static GenericRecord row(int producer, long seq) {
    GenericRecord r = new GenericData.Record(ROW);
    r.put("s", "x");
    r.put(SystemColumns.PRODUCER_ID, producer);
    r.put(SystemColumns.SEQUENCE, seq);
    r.put(SystemColumns.SEND_TIME_MICROS, 1L);
    return r;
  }

  @Test
  void countsEveryKindOfMiss() throws Exception {
    // expected: producer 0 sent 0..9, producer 1 sent 0..4, producer 1000 (warm-up) sent 0..2
    Map<Integer, Long> expected = Map.of(0, 10L, 1, 5L, 1000, 3L);
    List<GenericRecord> rows = new ArrayList<>();
    for (long s = 0; s < 10; s++) if (s != 3 && s != 7) rows.add(row(0, s)); // 0:3 and 0:7 lost...
    rows.add(row(0, 2));
    rows.add(row(0, 2)); // ...0:2 written three times: 2 duplicates
    for (long s = 0; s < 4; s++) rows.add(row(1, s)); // 1:4 is dead-lettered below
    rows.add(row(1, 99)); // never sent: unexpected
    for (long s = 0; s < 3; s++) rows.add(row(1000, s));
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("v.duckdb"));
    Verification v;
    try (TableStore store = spec.open()) {
      store.createTableIfMissing("events", ROW);
      store.createTableIfMissing(DeadLetters.tableFor("events"), DeadLetters.SCHEMA);
      try (TableWriter w = store.openWriter("events", ROW);
          TableWriter f = store.openWriter(DeadLetters.tableFor("events"), DeadLetters.SCHEMA)) {
        w.append(rows);
        GenericRecord failed = DeadLetters.of(DeadLetters.Stage.DECODE, new IllegalArgumentException("bad"),
            new io.streamlab.formats.EventHeaders.Stamp(1, 4, 1), null, new byte[] {1, 2});
        f.append(List.of(failed));
      }
      try (Connection c = store.openQueryConnection()) {
        v = TableVerifier.verify(c, "events", expected, Set.of(0, 1));
      }
    }
    assertEquals(18, v.expected());
    assertEquals(2, v.lost(), "0:3 and 0:7");
    assertEquals(2, v.duplicated(), "0:2 twice more");
    assertEquals(1, v.unexpected(), "1:99");
    assertEquals(Map.of("decode", 1L), v.failedByStage());
    assertEquals(rows.size() + 1, v.rows(), "table rows plus dead letters");
    assertEquals(rows.size() - 3, v.measuredRows(), "rows of producers 0 and 1 only");
  }
}
