package io.streamlab.store.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.IdentityKey;
import io.streamlab.store.TableWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed (exactly-once) appends into a real DuckDB file: a batch inserts the rows whose identity
 * the table lacks, and where it left some out, checks they were replays, not collisions. Each
 * identity is stored once, with the row first appended, and a batch that collides stores none of
 * its rows.
 */
class DuckDbKeyedAppendTest {
  private static final Schema EVENT = SchemaBuilder.record("e").fields()
      .requiredString("name")
      .name("nested").type(SchemaBuilder.record("nested").fields().requiredLong("n").endRecord()).noDefault()
      .endRecord();
  private static final Schema TABLE = SystemColumns.tableRecordSchema(EVENT);

  @TempDir Path dir;

  @Test
  void eachIdentityOnceWhateverTheBatchesHold() throws Exception {
    Path file = dir.resolve("keyed.duckdb");
    try (DuckDbStore store = new DuckDbStore(file)) {
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        w.append(rows(0, 200, "first"));
        w.append(rows(100, 300, "replayed")); // overlaps the first batch: only 200-299 are new
        w.append(rows(0, 300, "replayed")); // all stored already
        List<GenericRecord> repeated = rows(300, 320, "first");
        repeated.addAll(rows(310, 330, "first")); // 310-319 twice in one batch
        w.append(repeated);
      }
    }
    assertEquals(List.of(330L, 330L, 230L, 0L), counts(file));
  }

  @Test
  void aReopenedFileStillRecognisesStoredIdentities() throws Exception {
    Path file = dir.resolve("reopened.duckdb");
    try (DuckDbStore store = new DuckDbStore(file)) {
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        w.append(rows(0, 100, "first"));
      }
    }
    try (DuckDbStore store = new DuckDbStore(file)) {
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        w.append(rows(50, 150, "replayed"));
      }
    }
    assertEquals(List.of(150L, 150L, 100L, 0L), counts(file));
  }

  @Test
  void aCollidingBatchStoresNothing() throws Exception {
    Path file = dir.resolve("collision.duckdb");
    try (DuckDbStore store = new DuckDbStore(file)) {
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        w.append(rows(0, 100, "first"));
        List<GenericRecord> batch = rows(100, 200, "new");
        GenericRecord other = rows(42, 43, "other").get(0);
        other.put(SystemColumns.SEND_TIME_MICROS, 1L); // identity 42, another event's send time
        batch.add(other);
        IdentityCollisions.Found found = assertThrows(IdentityCollisions.Found.class, () -> w.append(batch));
        assertEquals(1, found.collisions().size());
        assertEquals(42L, found.collisions().get(0).sequence());
      }
    }
    assertEquals(List.of(100L, 100L, 100L, 0L), counts(file));
  }

  /**
   * The table has no key (its writers check each batch against it, within the batch's identity
   * range), and is marked as an exactly-once table. Replays reach back over several row groups and
   * producers whose sequences overlap: each identity is still stored once.
   */
  @Test
  void anUnkeyedTableStoresEachIdentityOnceAcrossRowGroupsAndProducers() throws Exception {
    Path file = dir.resolve("range.duckdb");
    try (DuckDbStore store = new DuckDbStore(file)) {
      store.createTableIfMissing("t", TABLE, true);
      try (Connection c = store.openQueryConnection()) {
        assertEquals(0L, query(c, "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 't' "
            + "AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')"), "no key to maintain");
        assertTrue(IdentityKey.present(c, "t"), "marked exactly-once");
      }
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        for (long s = 0; s < 300_000; s += 50_000) { // two producers, interleaved, over several row groups
          w.append(rows(1, s, s + 50_000, "first"));
          w.append(rows(2, s, s + 50_000, "first"));
        }
        w.append(rows(1, 0, 1_000, "replayed")); // the oldest row group's
        List<GenericRecord> mixed = rows(2, 149_000, 151_000, "replayed");
        mixed.addAll(rows(1, 299_500, 300_500, "first")); // 500 new
        mixed.addAll(rows(2, 300_000, 300_100, "first")); // 100 new
        w.append(mixed);
      }
      try (Connection c = store.openQueryConnection()) {
        assertEquals(600_600L, query(c, "SELECT count(*) FROM t"));
        assertEquals(600_600L, query(c, "SELECT count(DISTINCT (sl_producer_id, sl_sequence)) FROM t"));
        assertEquals(0L, query(c, "SELECT count(*) FROM t WHERE name LIKE 'replayed%'"));
      }
    }
  }

  /** A table an earlier version made, with a PRIMARY KEY on the identity, is still written exactly-once. */
  @Test
  void aTableWithTheEarlierPrimaryKeyIsStillWrittenOnce() throws Exception {
    Path file = dir.resolve("earlier.duckdb");
    try (DuckDbStore store = new DuckDbStore(file)) {
      try (Connection c = store.openQueryConnection(); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE t (name VARCHAR NOT NULL, nested STRUCT(n BIGINT) NOT NULL, sl_producer_id INTEGER "
            + "NOT NULL, sl_sequence BIGINT NOT NULL, sl_send_time_us BIGINT NOT NULL, sl_write_time_us BIGINT NOT NULL, "
            + "PRIMARY KEY (sl_producer_id, sl_sequence))");
      }
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true)) {
        w.append(rows(0, 100, "first"));
        w.append(rows(50, 150, "replayed"));
      }
    }
    assertEquals(List.of(150L, 150L, 100L, 0L), counts(file));
  }

  private static long query(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Events (producer 1, sequences from..to-1) named {@code name + sequence}, sent at 1000 + sequence. */
  private static List<GenericRecord> rows(long from, long to, String name) {
    return rows(1, from, to, name);
  }

  /** Events of {@code producer}, sequences from..to-1, named {@code name + sequence}, sent at 1000 + sequence. */
  private static List<GenericRecord> rows(int producer, long from, long to, String name) {
    List<GenericRecord> out = new ArrayList<>();
    for (long s = from; s < to; s++) {
      GenericRecord r = new GenericData.Record(TABLE);
      r.put("name", name + s);
      GenericRecord nested = new GenericData.Record(EVENT.getField("nested").schema());
      nested.put("n", s);
      r.put("nested", nested);
      r.put(SystemColumns.PRODUCER_ID, producer);
      r.put(SystemColumns.SEQUENCE, s);
      r.put(SystemColumns.SEND_TIME_MICROS, 1000L + s);
      out.add(r);
    }
    return out;
  }

  /** Rows, distinct identities, rows named "first...", rows whose nested value is not their sequence. */
  private static List<Long> counts(Path file) throws Exception {
    try (DuckDbStore store = new DuckDbStore(file);
        Connection c = store.openQueryConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT (sl_producer_id, sl_sequence)), "
            + "count(*) FILTER (WHERE name LIKE 'first%'), count(*) FILTER (WHERE nested.n <> sl_sequence) FROM t")) {
      rs.next();
      return List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
    }
  }
}
