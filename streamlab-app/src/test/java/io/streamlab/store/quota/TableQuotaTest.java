package io.streamlab.store.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each limit of the quota layer, counted. On a manual clock the counts are exact (tolerance 0),
 * also through a real DuckDB writer; the seeded random transient failures state their tolerance.
 */
class TableQuotaTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(5 * SECOND);
  @TempDir Path dir;

  private static QuotaLimits limits(long rowsPerSec, long bytesPerSec, int maxRows, long maxBytes, int concurrent,
      double failureRate) {
    return new QuotaLimits(rowsPerSec, bytesPerSec, maxRows, maxBytes, concurrent, failureRate, 7);
  }

  /** Admits requests until the first refusal; returns how many got in (all released at once). */
  private static int admitUntilRefused(TableQuota q, int rows, long bytes, QuotaReason expected) {
    int admitted = 0;
    while (true) {
      try {
        q.admit(rows, bytes);
        q.release(rows, bytes, true);
        admitted++;
      } catch (QuotaException e) {
        assertEquals(expected, e.reason(), e.getMessage());
        return admitted;
      }
    }
  }

  @Test
  void rowsPerSecondBucketRefusesWithQuotaExceeded() {
    TableQuota q = new TableQuota(limits(1_000, 0, 0, 0, 0, 0), now::get);
    // Burst = one second's worth: 10 requests of 100 rows, then quotaExceeded.
    assertEquals(10, admitUntilRefused(q, 100, 1, QuotaReason.QUOTA_EXCEEDED));
    now.addAndGet(SECOND / 2); // refills 500 rows
    assertEquals(5, admitUntilRefused(q, 100, 1, QuotaReason.QUOTA_EXCEEDED));
    now.addAndGet(10 * SECOND); // never more than the burst
    assertEquals(10, admitUntilRefused(q, 100, 1, QuotaReason.QUOTA_EXCEEDED));
    assertEquals(3, q.refused(QuotaReason.QUOTA_EXCEEDED));
    assertEquals(2_500, q.acceptedRows());
  }

  @Test
  void bytesPerSecondBucketRefusesWithQuotaExceededAndKeepsRowTokens() {
    TableQuota q = new TableQuota(limits(1_000_000, 50_000, 0, 0, 0, 0), now::get);
    assertEquals(5, admitUntilRefused(q, 10, 10_000, QuotaReason.QUOTA_EXCEEDED));
    now.addAndGet(SECOND / 5); // refills 10,000 bytes
    assertEquals(1, admitUntilRefused(q, 10, 10_000, QuotaReason.QUOTA_EXCEEDED));
    assertEquals(60_000, q.acceptedBytes());
    assertEquals(2, q.refused(QuotaReason.QUOTA_EXCEEDED));
  }

  @Test
  void perRequestRowAndByteLimitsRefuseAsInvalid() throws Exception {
    TableQuota q = new TableQuota(limits(0, 0, 500, 100_000, 0, 0), now::get);
    q.admit(500, 100_000);
    q.release(500, 100_000, true);
    assertEquals(QuotaReason.INVALID, assertThrows(QuotaException.class, () -> q.admit(501, 10)).reason());
    assertEquals(QuotaReason.INVALID, assertThrows(QuotaException.class, () -> q.admit(1, 100_001)).reason());
    assertEquals(2, q.refused(QuotaReason.INVALID));
    assertEquals(1, q.acceptedRequests());
  }

  @Test
  void concurrentRequestsOverTheLimitAreRateLimited() throws Exception {
    TableQuota q = new TableQuota(limits(0, 0, 0, 0, 3, 0), now::get);
    for (int i = 0; i < 3; i++) q.admit(1, 1); // three in flight
    assertEquals(QuotaReason.RATE_LIMIT_EXCEEDED, assertThrows(QuotaException.class, () -> q.admit(1, 1)).reason());
    q.release(1, 1, true);
    q.admit(1, 1); // a slot came free
    assertEquals(QuotaReason.RATE_LIMIT_EXCEEDED, assertThrows(QuotaException.class, () -> q.admit(1, 1)).reason());
    assertEquals(2, q.refused(QuotaReason.RATE_LIMIT_EXCEEDED));
  }

  @Test
  void refusedRequestsTakeNoTokensAndHoldNoSlot() throws Exception {
    // A transient failure after the slot was taken must give the slot back.
    TableQuota q = new TableQuota(limits(100, 0, 0, 0, 1, 0.5), now::get);
    int refused = 0;
    for (int i = 0; i < 200; i++) {
      try {
        q.admit(0, 0);
        q.release(0, 0, true);
      } catch (QuotaException e) {
        assertEquals(QuotaReason.BACKEND_ERROR, e.reason());
        refused++;
      }
    }
    assertTrue(refused > 0 && refused < 200, "some but not all refused: " + refused);
    // Slot free and the row bucket full (zero-row requests took nothing): only backendErrors may refuse.
    for (int tries = 0; ; tries++) {
      try {
        q.admit(100, 0);
        break;
      } catch (QuotaException e) {
        assertEquals(QuotaReason.BACKEND_ERROR, e.reason());
        assertTrue(tries < 50);
      }
    }
  }

  @Test
  void transientFailuresMatchTheirRate() throws Exception {
    TableQuota q = new TableQuota(limits(0, 0, 0, 0, 0, 0.1), now::get);
    int n = 2_000;
    for (int i = 0; i < n; i++) {
      try {
        q.admit(1, 1);
        q.release(1, 1, true);
      } catch (QuotaException e) {
        assertEquals(QuotaReason.BACKEND_ERROR, e.reason());
      }
    }
    // Expected 200; binomial sd ~13.4: tolerance +-40 (3 sd; the seed makes it deterministic anyway).
    long refused = q.refused(QuotaReason.BACKEND_ERROR);
    assertTrue(Math.abs(refused - 200) <= 40, "backendErrors " + refused + " of " + n + " at rate 0.1");
    assertEquals(n - refused, q.acceptedRequests());
  }

  @Test
  void writerThroughDuckDbWritesExactlyWhatTheQuotaAdmits() throws Exception {
    Schema event = SchemaLoader.loadDefault();
    Schema rowSchema = SystemColumns.tableRecordSchema(event);
    List<GenericRecord> batch = rows(event, rowSchema, 20);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("quota.duckdb"));
    // 100 rows/s in 20-row requests, on the manual clock: exact counts whatever the machine's speed.
    TableQuota q = new TableQuota(limits(100, 0, 0, 0, 0, 0), now::get);
    int refused = 0;
    try (TableStore store = spec.open()) {
      store.createTableIfMissing("events", rowSchema);
      try (TableWriter w = new FakeQuotaWriter(store.openWriter("events", rowSchema), q)) {
        for (int tick = 0; tick < 20; tick++) { // 2 s in 100 ms ticks, three appends tried per tick
          for (int i = 0; i < 3; i++) {
            try {
              w.append(batch);
            } catch (QuotaException e) {
              assertEquals(QuotaReason.QUOTA_EXCEEDED, e.reason());
              refused++;
            }
          }
          now.addAndGet(SECOND / 10);
        }
      }
      // Burst 100 (5 appends) + 10 rows per tick for 19 ticks = 290 rows = 14 appends (10 rows wait).
      assertEquals(14 * 20, q.acceptedRows());
      assertEquals(60 - 14, refused);
      assertEquals(refused, q.refused(QuotaReason.QUOTA_EXCEEDED));
      try (var c = store.openQueryConnection(); ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM events")) {
        rs.next();
        assertEquals(q.acceptedRows(), rs.getLong(1), "the table holds exactly what was admitted");
      }
    }
  }

  static List<GenericRecord> rows(Schema event, Schema rowSchema, int n) {
    RandomRecordFactory f = new RandomRecordFactory(event, GeneratorSettings.builder().build(), 3);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(SystemColumns.tableRecord(rowSchema, f.next(), 0, i, 0));
    }
    return rows;
  }
}
