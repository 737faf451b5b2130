package io.streamlab.store.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DuckDB writer holding its appends until a commit ({@link TableWriter#holdUntilCommit}), in a
 * real DuckDB file read through another connection: nothing is visible before the commit, a
 * refused append loses none of the rows held before it, and a writer closed without a commit (its
 * bundle failed) leaves nothing behind.
 */
class DuckDbHeldAppendsTest {
  private static final Schema TABLE = SystemColumns.tableRecordSchema(
      SchemaBuilder.record("e").fields().requiredString("name").endRecord());

  @TempDir Path dir;

  @Test
  void heldAppendsAreVisibleOnlyOnceCommittedAndTheNextOnesAreHeldAgain() throws Exception {
    try (DuckDbStore store = store(); TableWriter w = store.openWriter("t", TABLE, false);
        Connection reader = store.openQueryConnection()) {
      assertTrue(w.holdUntilCommit());
      w.append(rows(0, 100));
      w.append(rows(100, 200));
      assertEquals(0, count(reader), "held, not committed");
      w.commitHeld();
      assertEquals(200, count(reader));
      w.append(rows(200, 250));
      assertEquals(200, count(reader), "the next appends are held too");
      w.commitHeld();
      assertEquals(250, count(reader));
      w.commitHeld(); // nothing held: nothing to do
      assertEquals(250, distinct(reader));
    }
  }

  @Test
  void aRefusedAppendLosesNoHeldRowAndTheRestAutocommitUntilTheCommit() throws Exception {
    try (DuckDbStore store = store(); TableWriter w = store.openWriter("t", TABLE, false);
        Connection reader = store.openQueryConnection()) {
      assertTrue(w.holdUntilCommit());
      w.append(rows(0, 100));
      w.append(rows(100, 200));
      List<GenericRecord> poisoned = rows(200, 300);
      poisoned.get(50).put("name", invalidUtf8());
      assertThrows(io.streamlab.store.RowRefusedException.class, () -> w.append(poisoned), "refused for its content");
      assertEquals(200, count(reader), "the held rows, appended again and committed when the transaction aborted");
      w.append(rows(300, 310));
      assertEquals(210, count(reader), "autocommitted until the next commit: a retry or a split stands alone");
      w.commitHeld();
      w.append(rows(310, 320));
      assertEquals(210, count(reader), "held again after the commit");
      w.commitHeld();
      assertEquals(220, count(reader));
      assertEquals(220, distinct(reader), "no row twice");
    }
  }

  @Test
  void aWriterClosedWithoutACommitLeavesNothing() throws Exception {
    try (DuckDbStore store = store()) {
      try (TableWriter w = store.openWriter("t", TABLE, false)) {
        assertTrue(w.holdUntilCommit());
        w.append(rows(0, 100));
      }
      try (Connection reader = store.openQueryConnection()) {
        assertEquals(0, count(reader), "a failed bundle's held rows roll back: the runner replays them");
      }
    }
  }

  /**
   * A keyed (exactly-once) table's batches are held too, and a replay within the transaction
   * aborts nothing: its stored rows (committed, or held in the same transaction) are left out and
   * its new ones held with the rest. A batch that collides (an identity stored for another event)
   * is handled as a refused one: the held rows are committed without it, the rest autocommits.
   */
  @Test
  void aKeyedWriterHoldsAndAReplayLosesNothingAndStoresNothingTwice() throws Exception {
    try (DuckDbStore store = new DuckDbStore(dir.resolve("keyed.duckdb"))) {
      store.createTableIfMissing("t", TABLE, true);
      try (TableWriter w = store.openWriter("t", TABLE, true); Connection reader = store.openQueryConnection()) {
        assertTrue(w.holdUntilCommit());
        w.append(rows(0, 100));
        w.commitHeld();
        w.append(rows(100, 200));
        assertEquals(100, count(reader), "held");
        w.append(rows(50, 250)); // a replay of 50-199 (committed, and held in this transaction) with 200-249 new
        assertEquals(100, count(reader), "the replay's new rows held with the rest");
        w.commitHeld();
        assertEquals(250, count(reader));
        assertEquals(250, distinct(reader), "each identity once");

        w.append(rows(250, 260));
        List<GenericRecord> colliding = rows(260, 270);
        GenericRecord other = rows(42, 43).get(0);
        other.put(SystemColumns.SEND_TIME_MICROS, 1L); // identity 42, another event's send time
        colliding.add(other);
        IdentityCollisions.Found found = assertThrows(IdentityCollisions.Found.class, () -> w.append(colliding));
        assertEquals(42L, found.collisions().get(0).sequence());
        assertEquals(260, count(reader), "the held rows committed, nothing of the colliding batch");
        w.append(rows(260, 270));
        assertEquals(270, count(reader), "autocommitted until the next commit");
        w.commitHeld();
        w.append(rows(270, 280));
        assertEquals(270, count(reader), "held again after the commit");
        w.commitHeld();
        assertEquals(280, count(reader));
        assertEquals(280, distinct(reader), "each identity once");
      }
    }
  }

  private DuckDbStore store() throws Exception {
    DuckDbStore store = new DuckDbStore(dir.resolve("t.duckdb"));
    store.createTableIfMissing("t", TABLE, false);
    return store;
  }

  /** A lead byte with nothing after it: no decoder lets it through, DuckDB refuses it. */
  private static Utf8 invalidUtf8() {
    byte[] bad = "bad-?".getBytes(StandardCharsets.US_ASCII);
    bad[bad.length - 1] = (byte) 0xC3;
    return new Utf8(bad);
  }

  private static List<GenericRecord> rows(long from, long to) {
    List<GenericRecord> out = new ArrayList<>();
    for (long s = from; s < to; s++) {
      GenericRecord r = new GenericData.Record(TABLE);
      r.put("name", "e" + s);
      r.put(SystemColumns.PRODUCER_ID, 1);
      r.put(SystemColumns.SEQUENCE, s);
      r.put(SystemColumns.SEND_TIME_MICROS, 1000L + s);
      out.add(r);
    }
    return out;
  }

  private static long count(Connection c) throws SQLException {
    return query(c, "SELECT count(*) FROM t");
  }

  private static long distinct(Connection c) throws SQLException {
    return query(c, "SELECT count(DISTINCT sl_sequence) FROM t");
  }

  private static long query(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
