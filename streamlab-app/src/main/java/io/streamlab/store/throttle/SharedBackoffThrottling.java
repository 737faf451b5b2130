package io.streamlab.store.throttle;

import io.streamlab.store.quota.QuotaReason;

/**
 * {@code shared-backoff}: one backoff for all in-flight requests of the table. A rateLimitExceeded
 * or quotaExceeded pauses every writer until the backoff has passed (it doubles while errors
 * continue, up to the maximum, and resets when a request succeeds); those
 * two errors are retried. Other errors fail the append, as in none. Errors of requests sent
 * before the latest pause began do not lengthen it: they are the same overload, seen late.
 */
final class SharedBackoffThrottling extends RetryingStrategy {
  private long pausedUntilNanos;
  private long backoffMillis;
  private long epoch;

  SharedBackoffThrottling(Tuning tuning, ThrottleStats stats) {
    super(tuning, stats);
  }

  @Override
  protected long beforeAttempt(int rows) throws InterruptedException {
    while (true) {
      long waitNanos, current;
      synchronized (this) {
        waitNanos = pausedUntilNanos - System.nanoTime();
        current = epoch;
      }
      if (waitNanos <= 0) return current;
      Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    }
  }

  @Override
  protected synchronized void onSuccess(int rows) {
    backoffMillis = 0;
  }

  @Override
  protected boolean retries(Exception e, QuotaReason reason) {
    return reason == QuotaReason.RATE_LIMIT_EXCEEDED || reason == QuotaReason.QUOTA_EXCEEDED;
  }

  @Override
  protected synchronized long onError(QuotaReason reason, long sentInEpoch, long requestBackoffMillis) {
    if (sentInEpoch == epoch) {
      backoffMillis = backoffMillis == 0 ? tuning.backoffInitialMillis()
          : Math.min(tuning.backoffMaxMillis(), backoffMillis * 2);
      pausedUntilNanos = System.nanoTime() + jittered(backoffMillis) * 1_000_000;
      epoch++;
    }
    return 0; // the wait is the shared pause, taken in beforeAttempt
  }
}
