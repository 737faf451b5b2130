package io.streamlab.pipeline.write;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code --autoSharding} on every runner: the number of shards rows are spread over follows the
 * write stage's backlog, as Dataflow's service-side auto-sharding does for BigQueryIO. Beam's own
 * {@code GroupIntoBatches.withShardedKey()} shards by (JVM, thread) on runners other than Dataflow,
 * i.e. one shard per worker thread on Flink, a count that never moves; so streamlab emulates the
 * service instead: every second, if most requests had to queue behind their shard's previous one
 * (rows wait for a request: too few shards) the count doubles, if few did it shrinks by an eighth.
 * Whether a batch left full is no such signal: a request of one row is always full. One count per
 * JVM (a worker decides for its own rows, as a Dataflow worker does for its keys).
 */
final class AutoShards {
  static final int MIN = 1;
  static final int MAX = 4096;
  private static final long PERIOD_NANOS = 1_000_000_000L;
  /** Where a shard count starts: one per core, like withShardedKey's one per thread. */
  private static final AtomicInteger CURRENT = new AtomicInteger(Math.max(MIN, Runtime.getRuntime().availableProcessors()));
  private static final LongAdder QUEUED = new LongAdder();
  private static final LongAdder REQUESTS = new LongAdder();
  private static final AtomicLong NEXT_DECISION = new AtomicLong(System.nanoTime() + PERIOD_NANOS);
  /** Whether this JVM writes auto-sharded: only then is the count a figure of the run (WriteStats). */
  private static volatile boolean inUse;

  private AutoShards() {}

  static int current() {
    return CURRENT.get();
  }

  static boolean inUse() {
    return inUse;
  }

  /** A request left; {@code queued} if its shard's previous request was still in flight. */
  static void observe(boolean queued) {
    if (!inUse) inUse = true;
    REQUESTS.increment();
    if (queued) QUEUED.increment();
    long now = System.nanoTime(), due = NEXT_DECISION.get();
    if (now - due < 0 || !NEXT_DECISION.compareAndSet(due, now + PERIOD_NANOS)) return;
    long requests = REQUESTS.sumThenReset(), waited = QUEUED.sumThenReset();
    if (requests == 0) return;
    double queuedShare = (double) waited / requests;
    if (queuedShare > 0.5) CURRENT.updateAndGet(n -> Math.min(MAX, n * 2));
    else if (queuedShare < 0.1) CURRENT.updateAndGet(n -> Math.max(MIN, n - Math.max(1, n / 8)));
  }
}
