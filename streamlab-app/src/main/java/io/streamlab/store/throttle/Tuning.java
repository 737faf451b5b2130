package io.streamlab.store.throttle;

import java.io.Serializable;

/**
 * Knobs of the strategies. Backoff: per request (none, retry-any, adaptive) or shared
 * (shared-backoff), exponential from {@code backoffInitialMillis} doubling up to
 * {@code backoffMaxMillis}, each wait jittered to 50-100 % so retries do not march in step.
 *
 * @param maxRetries retries of one request before its error fails the append (0 = unlimited)
 * @param adaptiveIntervalMillis adaptive: raise the rate after this long without an error
 * @param adaptiveIncreasePercent adaptive: raise by this much
 * @param adaptiveDecreasePercent adaptive: lower by this much after an error
 * @param adaptiveInitialRate adaptive: starting rate in rows/s per table; 0 = unlimited until the
 *     first error, then the rate observed just before it
 */
public record Tuning(long backoffInitialMillis, long backoffMaxMillis, int maxRetries,
    long adaptiveIntervalMillis, double adaptiveIncreasePercent, double adaptiveDecreasePercent,
    double adaptiveInitialRate) implements Serializable {

  public Tuning {
    if (backoffInitialMillis <= 0 || backoffMaxMillis < backoffInitialMillis) {
      throw new IllegalArgumentException("backoff must satisfy 0 < initial <= max, got "
          + backoffInitialMillis + " ms / " + backoffMaxMillis + " ms");
    }
    if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be >= 0: " + maxRetries);
    if (adaptiveIntervalMillis <= 0) {
      throw new IllegalArgumentException("adaptive interval must be > 0: " + adaptiveIntervalMillis + " ms");
    }
    if (adaptiveIncreasePercent < 0 || adaptiveDecreasePercent <= 0 || adaptiveDecreasePercent >= 100) {
      throw new IllegalArgumentException("adaptive steps must be increase >= 0 and 0 < decrease < 100 (percent): +"
          + adaptiveIncreasePercent + " / -" + adaptiveDecreasePercent);
    }
    if (adaptiveInitialRate < 0) throw new IllegalArgumentException("adaptive initial rate must be >= 0");
  }

  /** +1 % per minute without errors, -5 % after one, as in the original study; 100 ms .. 5 s backoff. */
  public static Tuning defaults() {
    return new Tuning(100, 5_000, 50, 60_000, 1, 5, 0);
  }
}
