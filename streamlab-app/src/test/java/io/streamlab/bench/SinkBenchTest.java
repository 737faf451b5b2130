package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.Tuning;
import io.streamlab.store.throttle.WriterPool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code none} through the real write path on Flink: a quotaExceeded fails the bundle, Flink
 * restarts from the last checkpoint and writes the bundle again, and every row arrives; rows of a
 * failed bundle written before the failure show up as duplicates (counted, not asserted zero).
 */
class SinkBenchTest {
  @TempDir Path dir;

  /** 500 rows/s offered, short backoffs, the given quota and runner; 4 minutes at most. */
  private SinkBench bench(long rows, long seed, QuotaLimits quota, RunnerChoice runner) {
    return new SinkBench(new SinkBench.Config(dir, SchemaLoader.loadDefault(), rows, 500, seed, List.of(),
        new Tuning(20, 500, 0, 60_000, 1, 5, 0), quota, runner, 50_000, "events", Duration.ofMinutes(4), Duration.ofSeconds(30)), System.out);
  }

  @Test
  void noneFailsBundlesOnQuotaExceededAndTheRunnerRetriesThemWithoutLoss() throws Exception {
    long rows = 2_000;
    // 200 rows/s quota (burst 200) against 500 rows/s offered for 4 s, in 50-row requests (the
    // writer manages more than that even on a machine shared by many builds).
    // A Flink restart replays from the last checkpoint as fast as it can (the counter, like a
    // Kafka backlog, catches up), so the bucket runs dry again soon after every restart: the
    // job converges only if a checkpoint completes between failures. Hence one writer (one
    // failover region: with two, one is nearly always restarting and no checkpoint can start),
    // 50-row bundles (a failed bundle is one request), checkpoints every 100 ms and a 1 s
    // restart delay (the bucket refills). With more pressure none livelocks (see sinkbench).
    // No transient failures: every failed bundle is the quota's doing.
    QuotaLimits quota = new QuotaLimits(200, 0, 50, 0, 4, 0, 1);
    RunnerChoice flink = new RunnerChoice("FlinkRunner", "[local]", 1, 50, 250, List.of(
        "--checkpointingInterval=100", "--numberOfExecutionRetries=100", "--executionRetryDelay=1000"));
    SinkBench bench = bench(rows, 5, quota, flink);
    SinkBenchResult r = bench.runOne(new SinkBench.Variant(Strategy.NONE, WriterPool.UNBOUNDED));
    SinkBenchResult.print(List.of(r), System.out);

    assertEquals("ok", r.outcome());
    assertEquals(0, r.lost(), "lost rows");
    assertTrue(r.errors().get("quotaExceeded") > 0, "quotaExceeded seen");
    assertTrue(r.failedAppends() > 0, "a quotaExceeded failed a bundle");
    // Everything the quota admitted is in the table: the rows plus their duplicates.
    assertEquals(rows + r.duplicated(), r.rowsWritten());
  }

  @Test
  void sharedBackoffWritesEveryRowThroughStreamingInsertsUnderQuotaPressure() throws Exception {
    long rows = 1_500;
    // 300 rows/s quota against 500 rows/s offered, through the STREAMING_INSERTS path: JSON rows
    // reshuffled onto keys, then insert requests of at most 50 rows (the quota's request size).
    QuotaLimits quota = new QuotaLimits(300, 0, 50, 0, 4, 0, 1);
    RunnerChoice flink = new RunnerChoice("FlinkRunner", "[local]", 2, 200, 250, List.of(
        "--checkpointingInterval=500", "--numberOfExecutionRetries=100", "--executionRetryDelay=500"));
    SinkBench bench = bench(rows, 7, quota, flink);
    SinkBenchResult r = bench.runOne(new SinkBench.Variant(
        io.streamlab.pipeline.write.WriteMethod.STREAMING_INSERTS, Strategy.SHARED_BACKOFF, WriterPool.UNBOUNDED));
    SinkBenchResult.print(List.of(r), System.out);

    assertEquals("ok", r.outcome());
    assertEquals("STREAMING_INSERTS", r.writeMethod());
    assertEquals(0, r.lost(), "lost rows");
    assertTrue(r.errors().getOrDefault("quotaExceeded", 0L) + r.errors().getOrDefault("rateLimitExceeded", 0L) > 0,
        "the quota pushed back");
    assertEquals(rows + r.duplicated(), r.rowsWritten(), "everything admitted is in the table");
  }

  @Test
  void aTransientBackendErrorNeverDeadLettersAGoodRow() throws Exception {
    long rows = 1_000;
    // No quota pressure, only transient backendErrors (10 % of requests) and strategy none: the
    // failed append must fail the bundle (the runner retries it), never split and dead-letter
    // the rows. "lost" counts rows not in the table, dead letters included.
    QuotaLimits quota = new QuotaLimits(0, 0, 50, 0, 4, 0.1, 3);
    RunnerChoice flink = new RunnerChoice("FlinkRunner", "[local]", 1, 50, 250, List.of(
        "--checkpointingInterval=100", "--numberOfExecutionRetries=100", "--executionRetryDelay=500"));
    SinkBenchResult r = bench(rows, 11, quota, flink).runOne(new SinkBench.Variant(Strategy.NONE, WriterPool.UNBOUNDED));
    SinkBenchResult.print(List.of(r), System.out);

    assertTrue(r.errors().getOrDefault("backendError", 0L) > 0, "backendErrors were injected");
    assertEquals(0, r.deadLettered(), "a transient error dead-lettered good rows");
    assertEquals(0, r.lost(), "rows not in the table");
    assertEquals("ok", r.outcome());
  }
}
