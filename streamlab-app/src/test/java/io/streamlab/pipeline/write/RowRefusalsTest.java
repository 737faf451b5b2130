package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.schema.SystemColumns;
import io.streamlab.store.RowRefusedException;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.StoreUnavailableException;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import io.streamlab.store.postgres.TestPostgres;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the stores really answer, sorted by {@link RowRefusals}: a row refused for its content is
 * told from an append that failed around its rows (a lock held by another session, a cancelled
 * task's interruption), which must fail the bundle, never dead-letter good rows.
 */
class RowRefusalsTest {
  private static final Schema SCHEMA = SystemColumns.tableRecordSchema(
      SchemaBuilder.record("Named").namespace("t").fields().requiredLong("id").requiredString("name").endRecord());
  private String url;

  @AfterEach
  void drop() throws Exception {
    TestPostgres.drop(url);
  }

  @Test
  void postgresRefusingARowForItsContentIsTheRowsFaultAndALockTimeoutIsNot() throws Exception {
    url = TestPostgres.freshSchemaUrl("sl_refusals");
    // the writer's sessions give up on a lock after 200 ms, as a busy server's would after longer
    try (TableStore store = StoreSpec.postgres(url + "&options=-c%20lock_timeout%3D200", null).open()) {
      store.createTableIfMissing("t", SCHEMA, false);
      try (TableWriter w = store.openWriter("t", SCHEMA, false)) {
        Exception nul = assertThrows(Exception.class, () -> w.append(List.of(row(1, "a\u0000b"))));
        assertTrue(nul instanceof RowRefusedException, "the writer says so: " + nul);
        assertTrue(RowRefusals.refusedForContent(nul), "a NUL in text: " + nul);
        assertRefusesAValueOfAnotherType(w);

        try (Connection other = DriverManager.getConnection(url); Statement st = other.createStatement()) {
          other.setAutoCommit(false);
          st.execute("LOCK TABLE t IN ACCESS EXCLUSIVE MODE");
          Exception locked = assertThrows(Exception.class, () -> w.append(List.of(row(2, "good"))));
          assertFalse(StoreUnavailableException.isCause(locked), "the server is up: " + locked);
          assertFalse(RowRefusals.refusedForContent(locked), "a lock another session holds: " + locked);
          other.rollback();
        }
        w.append(List.of(row(2, "good"))); // the same row, once the lock is gone
      }
    }
  }

  @Test
  void duckDbRefusingInvalidUtf8IsTheRowsFault(@TempDir Path dir) throws Exception {
    try (TableStore store = StoreSpec.duckdb(dir.resolve("t.duckdb")).open()) {
      store.createTableIfMissing("t", SCHEMA, false);
      try (TableWriter w = store.openWriter("t", SCHEMA, false)) {
        byte[] bad = "bad-?".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        bad[bad.length - 1] = (byte) 0xC3; // a lead byte with nothing after it
        GenericRecord r = row(1, "x");
        r.put("name", new org.apache.avro.util.Utf8(bad));
        Exception refused = assertThrows(Exception.class, () -> w.append(List.of(r)));
        assertTrue(refused instanceof RowRefusedException, "the writer says so: " + refused);
        assertTrue(RowRefusals.refusedForContent(refused), "invalid UTF-8: " + refused);
        assertRefusesAValueOfAnotherType(w);
        w.append(List.of(row(2, "good")));
      }
    }
  }

  @Test
  void anInterruptionIsNeverTheRowsFault() {
    Exception cancelled = new IOException("COPY failed", new InterruptedIOException("interrupted"));
    assertTrue(RowRefusals.interrupted(cancelled));
    assertFalse(RowRefusals.refusedForContent(cancelled));
    Exception interruptedWhileEncoding = new RowRefusedException("encoding stopped", new InterruptedException());
    assertFalse(RowRefusals.refusedForContent(interruptedWhileEncoding), "an interruption wins over the exception's type");
  }

  @Test
  void aFailureOutsideTheStoresWordsIsNotTheRowsFault() {
    assertFalse(RowRefusals.refusedForContent(new IOException("COPY failed", new java.sql.SQLException("refused", "22021"))),
        "only a store's writer tells its own answers");
    assertFalse(RowRefusals.refusedForContent(new IllegalStateException("a bug around the rows")));
    assertTrue(RowRefusals.refusedForContent(new IOException("wrapped by a decorator",
        new io.streamlab.store.quota.QuotaException(io.streamlab.store.quota.QuotaReason.INVALID, "request too large"))));
  }

  /** An encoder given a value of another type than its column's (a string for a BIGINT) refuses the row. */
  private static void assertRefusesAValueOfAnotherType(TableWriter w) {
    GenericRecord r = row(3, "typed");
    r.put("id", "three");
    Exception refused = assertThrows(Exception.class, () -> w.append(List.of(r)));
    assertTrue(refused instanceof RowRefusedException, "a string for a BIGINT: " + refused);
    assertTrue(RowRefusals.refusedForContent(refused));
  }

  private static GenericRecord row(long id, String name) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("name", name);
    r.put(SystemColumns.PRODUCER_ID, 0);
    r.put(SystemColumns.SEQUENCE, id);
    r.put(SystemColumns.SEND_TIME_MICROS, System.currentTimeMillis() * 1000);
    return r;
  }
}
