package io.streamlab.store.throttle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.quota.QuotaReason;
import io.streamlab.store.quota.TableQuota;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every strategy under quota pressure, on a real DuckDB file, with the writers used directly:
 * four writer threads append batches as a pipeline's bundles would, and a failed append is
 * retried whole, as the runner retries a failed bundle. Every row must arrive (0 lost).
 */
class ThrottlingStrategiesTest {
  private static final Schema EVENT = SchemaLoader.loadDefault();
  private static final Schema ROW = SystemColumns.tableRecordSchema(EVENT);
  private static final int WRITERS = 4, BATCHES = 2, BATCH = 100;
  /**
   * 800 rows at 200 rows/s (burst 200), 50 rows per request, 2 in flight, 2 % backendErrors:
   * far under what DuckDB takes even with the machine shared (4 appends/s), so the quota is
   * the limit.
   */
  private static final QuotaLimits QUOTA = new QuotaLimits(200, 0, 50, 0, 2, 0.02, 11);
  private static final Tuning FAST = new Tuning(10, 400, 0, 60_000, 1, 5, 0);

  @TempDir Path dir;

  record Outcome(Verification verified, ThrottleStats stats, TableQuota quota, long bundleRetries) {}

  private Outcome writeUnderPressure(Strategy strategy, WriterPool pool) throws Exception {
    StoreSpec plain = StoreSpec.duckdb(dir.resolve(strategy + "-" + pool + ".duckdb"));
    StoreSpec throttled = plain.withDecorator(new ThrottleSpec(strategy, pool, FAST, QUOTA));
    AtomicLong bundleRetries = new AtomicLong();
    try (TableStore store = throttled.open()) {
      store.createTableIfMissing("events", ROW);
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        Thread t = new Thread(() -> {
          RandomRecordFactory events = new RandomRecordFactory(EVENT, GeneratorSettings.builder().build(), writer);
          try (TableWriter tw = store.openWriter("events", ROW)) {
            for (int b = 0; b < BATCHES; b++) {
              List<GenericRecord> bundle = new ArrayList<>();
              for (int i = 0; i < BATCH; i++) {
                bundle.add(SystemColumns.tableRecord(ROW, events.next(), 0, (writer * BATCHES + b) * BATCH + i, 0));
              }
              for (int attempt = 0; ; attempt++) { // the runner retrying a failed bundle
                try {
                  tw.append(bundle);
                  break;
                } catch (Exception e) {
                  if (attempt > 200) throw e;
                  bundleRetries.incrementAndGet();
                  // A runner retries a bundle after a delay (Flink: restart delay); retried at
                  // once, four writers would keep draining the bucket with partial bundles.
                  Thread.sleep(300 + ThreadLocalRandom.current().nextInt(300));
                }
              }
            }
          } catch (Throwable e) {
            synchronized (failures) {
              failures.add(e);
            }
          }
        });
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) t.join();
      ThrottleStats stats = ThrottleStats.find(plain.toString(), "events");
      System.out.printf("%s/%s: errors %s, %d retries, %d failed appends%n", strategy, pool,
          stats.errorsByReason(), stats.retries(), stats.failedAppends());
      assertTrue(failures.isEmpty(), "writer failures: " + failures);
    }
    Verification v;
    try (TableStore s = plain.open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, "events", Map.of(0, (long) WRITERS * BATCHES * BATCH), Set.of(0));
    }
    String id = plain.toString();
    return new Outcome(v, ThrottleStats.find(id, "events"), TableQuota.find(id, "events"), bundleRetries.get());
  }

  @ParameterizedTest(name = "{0} on pool {1}")
  @CsvSource({"none,unbounded", "adaptive,unbounded", "shared-backoff,unbounded", "retry-any,unbounded",
      "retry-any,single", "shared-backoff,3"})
  void everyStrategyWritesEveryRowUnderQuotaPressure(String strategy, String pool) throws Exception {
    Outcome o = writeUnderPressure(Strategy.parse(strategy), WriterPool.parse(pool));
    Verification v = o.verified();
    assertEquals(WRITERS * BATCHES * BATCH, v.expected());
    assertEquals(0, v.lost(), "lost rows");
    assertEquals(0, v.unexpected(), "unexpected rows");
    // What the quota admitted is exactly what the table holds, duplicates included.
    assertEquals(v.rows(), o.quota().acceptedRows());
    assertEquals(v.rows(), o.stats().rowsWritten());
    long refusals = o.quota().refused(QuotaReason.QUOTA_EXCEEDED) + o.quota().refused(QuotaReason.RATE_LIMIT_EXCEEDED);
    // Unbounded writers send everything at once; one writer thread may stay under the quota.
    if (o.quota() != null && WriterPool.parse(pool).unbounded()) assertTrue(refusals > 0, "the quota must have pushed back");
    if (Strategy.parse(strategy) == Strategy.RETRY_ANY) {
      // Every error retried per request: no append ever failed, so no bundle was retried.
      assertEquals(0, o.stats().failedAppends());
      assertEquals(0, v.duplicated(), "duplicated rows");
    }
    // Appends fail only when the strategy did not retry an error; those are the retried bundles.
    assertEquals(o.bundleRetries(), o.stats().failedAppends());
  }

  @Test
  void noneRetriesOnlyRateLimitsAndFailsTheBundleOnQuotaExceeded() throws Exception {
    Outcome o = writeUnderPressure(Strategy.NONE, WriterPool.UNBOUNDED);
    assertTrue(o.stats().errors(QuotaReason.QUOTA_EXCEEDED) > 0, "quotaExceeded seen");
    assertTrue(o.stats().failedAppends() > 0, "a quotaExceeded fails the append (the bundle)");
    // Retries are of rateLimitExceeded only: all other errors failed an append instead.
    assertEquals(o.stats().errors(QuotaReason.RATE_LIMIT_EXCEEDED), o.stats().retries());
    assertEquals(0, o.verified().lost());
    System.out.printf("none: %d failed appends, %d rows duplicated by bundle retries%n",
        o.stats().failedAppends(), o.verified().duplicated());
  }
}
