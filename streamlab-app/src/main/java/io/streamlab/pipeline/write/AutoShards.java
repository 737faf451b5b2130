package io.streamlab.pipeline.write;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code --autoSharding} on every runner: the number of shards rows are spread over follows the
 * write stage's backlog, as Dataflow's service-side auto-sharding does for BigQueryIO. Beam's own
 * {@code GroupIntoBatches.withShardedKey()} shards by (JVM, thread) on runners other than Dataflow,
 * i.e. one shard per worker thread on Flink, a count that never moves; so streamlab emulates the
 * service instead: every second, if most batches left full (rows wait for a request: too few
 * shards) the count doubles, if few did it shrinks by an eighth. One count per JVM (a worker
 * decides for its own rows, as a Dataflow worker does for its keys).
 */
final class AutoShards {
  static final int MIN = 1;
  static final int MAX = 4096;
  private static final long PERIOD_NANOS = 1_000_000_000L;
  /** Where a shard count starts: one per core, like withShardedKey's one per thread. */
  private static final AtomicInteger CURRENT = new AtomicInteger(Math.max(MIN, Runtime.getRuntime().availableProcessors()));
  private static final LongAdder FULL = new LongAdder();
  private static final LongAdder BATCHES = new LongAdder();
  private static final AtomicLong NEXT_DECISION = new AtomicLong(System.nanoTime() + PERIOD_NANOS);

  private AutoShards() {}

  static int current() {
    return CURRENT.get();
  }

  /** A batch left for a request; {@code full} if it held as many rows as a request may. */
  static void observe(boolean full) {
    BATCHES.increment();
    if (full) FULL.increment();
    long now = System.nanoTime(), due = NEXT_DECISION.get();
    if (now - due < 0 || !NEXT_DECISION.compareAndSet(due, now + PERIOD_NANOS)) return;
    long batches = BATCHES.sumThenReset(), full2 = FULL.sumThenReset();
    if (batches == 0) return;
    double fullShare = (double) full2 / batches;
    if (fullShare > 0.5) CURRENT.updateAndGet(n -> Math.min(MAX, n * 2));
    else if (fullShare < 0.1) CURRENT.updateAndGet(n -> Math.max(MIN, n - Math.max(1, n / 8)));
  }
}
