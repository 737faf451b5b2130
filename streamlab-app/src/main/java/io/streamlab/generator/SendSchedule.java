package io.streamlab.generator;

import java.util.concurrent.locks.LockSupport;

/**
 * The fixed send schedule of one rate-limited sending thread: message n is due at
 * {@code start + n / rate}. A thread that falls behind sends at once but keeps the schedule's
 * <em>intended</em> send times, so lag shows up as latency instead of silently lowering the rate
 * (the coordinated-omission correction). Shared by the event generator and the load test.
 */
public final class SendSchedule {
  /**
   * Sleep only when the schedule is at least a millisecond ahead: messages then leave in small
   * bursts (each still stamped with its own intended time) instead of one wake-up per message,
   * which at 10 k messages/s per thread cost more CPU than the sending.
   */
  private static final long PACING_SLACK_NANOS = 1_000_000;

  private final long startNanos;
  private final long startMicros;
  private final long intervalNanos;

  /**
   * @param ratePerSec messages per second for this thread; 0 = unlimited (every message due now)
   * @param startNanos {@link System#nanoTime()} at the start of the schedule
   * @param startMicros wall-clock microseconds at the same instant
   */
  public SendSchedule(double ratePerSec, long startNanos, long startMicros) {
    if (ratePerSec < 0) throw new IllegalArgumentException("rate must be >= 0, was " + ratePerSec);
    this.startNanos = startNanos;
    this.startMicros = startMicros;
    this.intervalNanos = ratePerSec > 0 ? Math.max(1, (long) (1e9 / ratePerSec)) : 0;
  }

  /** When message {@code n} (0-based) is due, in {@link System#nanoTime()} terms. */
  public long dueNanos(long n) {
    return intervalNanos == 0 ? System.nanoTime() : startNanos + n * intervalNanos;
  }

  /** Waits until {@code dueNanos} unless the schedule is less than the pacing slack ahead. */
  public void awaitDue(long dueNanos) {
    long wait = dueNanos - System.nanoTime();
    if (wait > PACING_SLACK_NANOS) LockSupport.parkNanos(wait);
  }

  /** The wall-clock microseconds a message due at {@code dueNanos} was meant to leave. */
  public long intendedMicros(long dueNanos) {
    return startMicros + (dueNanos - startNanos) / 1_000;
  }
}
