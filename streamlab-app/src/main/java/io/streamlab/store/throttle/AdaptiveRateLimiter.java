package io.streamlab.store.throttle;

import java.util.function.LongSupplier;

/**
 * A rows/s limiter whose rate moves: down a step after an error, up a step after each interval
 * without one. An error counts only if its request was admitted at the current rate (same
 * epoch): the requests in flight when the quota ran out fail together, and they are one signal,
 * not one per request (else ten failures would cut the rate by 40 % at once).
 */
final class AdaptiveRateLimiter {
  private static final long SECOND = 1_000_000_000L;
  /** Never below this: a limiter at ~0 rows/s would never learn that the quota came back. */
  private static final double MIN_RATE = 1;

  private final double increase;
  private final double decrease;
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private double rate;
  private long nextFreeNanos;
  private long epoch;
  private long lastChangeNanos;
  private long windowStartNanos;
  private long windowRows;
  private double observedRate;

  AdaptiveRateLimiter(Tuning tuning, LongSupplier nanoTime) {
    this.increase = tuning.adaptiveIncreasePercent() / 100;
    this.decrease = tuning.adaptiveDecreasePercent() / 100;
    this.intervalNanos = tuning.adaptiveIntervalMillis() * 1_000_000;
    this.nanoTime = nanoTime;
    this.rate = tuning.adaptiveInitialRate() > 0 ? tuning.adaptiveInitialRate() : Double.POSITIVE_INFINITY;
    long now = nanoTime.getAsLong();
    lastChangeNanos = now;
    windowStartNanos = now;
    nextFreeNanos = now;
  }

  /** Waits until {@code rows} may be sent; returns the epoch they were admitted in. */
  long acquire(int rows) throws InterruptedException {
    long waitNanos, admittedEpoch;
    synchronized (this) {
      long now = nanoTime.getAsLong();
      if (Double.isFinite(rate) && now - lastChangeNanos >= intervalNanos) {
        rate *= 1 + increase;
        lastChangeNanos = now;
      }
      admittedEpoch = epoch;
      if (Double.isInfinite(rate)) return admittedEpoch;
      long start = Math.max(now, nextFreeNanos);
      nextFreeNanos = start + (long) (rows * SECOND / rate);
      waitNanos = start - now;
    }
    if (waitNanos > 0) Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    return admittedEpoch;
  }

  synchronized void succeeded(int rows) {
    long now = nanoTime.getAsLong();
    windowRows += rows;
    long elapsed = now - windowStartNanos;
    if (elapsed >= SECOND) {
      observedRate = windowRows * (double) SECOND / elapsed;
      windowRows = 0;
      windowStartNanos = now;
    }
  }

  synchronized void slowDown(long admittedEpoch) {
    if (admittedEpoch != epoch) return;
    long now = nanoTime.getAsLong();
    double base = rate;
    if (Double.isInfinite(base)) {
      // First error without a configured rate: start from what got through just before it.
      long elapsed = now - windowStartNanos;
      double current = elapsed > SECOND / 10 ? windowRows * (double) SECOND / elapsed : 0;
      base = Math.max(observedRate, current);
      if (base <= 0) base = 1_000;
    }
    rate = Math.max(MIN_RATE, base * (1 - decrease));
    epoch++;
    lastChangeNanos = now;
  }

  synchronized double rate() {
    return rate;
  }
}
