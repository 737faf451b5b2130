package io.streamlab.pipeline.write;

import java.time.Duration;

/**
 * How a writer waits out a store it cannot reach (a PostgreSQL restart cuts every connection for
 * a few seconds): the same append is retried after a growing pause, never split into single rows
 * and never dead-lettered, because nothing is wrong with the rows. Only when the store stays away
 * longer than {@link #PATIENCE} does the append fail, and with it the bundle, which the runner
 * then retries from its last checkpoint. Waiting here rather than failing at once spares a job
 * restart (and its replay) for every short outage.
 */
final class OutageWait {
  static final Duration PATIENCE = Duration.ofMinutes(2);
  private static final long MAX_PAUSE_MILLIS = 2_000;

  private final String table;
  private long sinceNanos = -1;
  private long pauseMillis;

  OutageWait(String table) {
    this.table = table;
  }

  /** After an append failed because the store was unreachable: pauses, or rethrows once patience ran out. */
  void pauseOrGiveUp(Exception unreachable) throws Exception {
    long now = System.nanoTime();
    if (sinceNanos < 0) {
      sinceNanos = now;
      pauseMillis = 100;
      System.err.printf("[streamlab] writer of %s: store unreachable (%s); retrying for up to %d s%n",
          table, unreachable.getMessage(), PATIENCE.toSeconds());
    }
    if (now - sinceNanos > PATIENCE.toNanos()) {
      sinceNanos = -1;
      throw unreachable;
    }
    Thread.sleep(pauseMillis);
    pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
  }

  /** After a successful append: an outage, if there was one, is over. */
  void over() {
    if (sinceNanos >= 0) {
      System.err.printf("[streamlab] writer of %s: store reachable again after %.1f s%n", table,
          (System.nanoTime() - sinceNanos) / 1e9);
      sinceNanos = -1;
    }
  }
}
