package io.streamlab.store.throttle;

import io.streamlab.store.quota.QuotaReason;

/**
 * {@code adaptive}: every request of the table passes one rate limiter (rows/s) that slows down
 * by {@link Tuning#adaptiveDecreasePercent()} after a rateLimitExceeded or quotaExceeded and
 * speeds up by {@link Tuning#adaptiveIncreasePercent()} after each
 * {@link Tuning#adaptiveIntervalMillis()} without one. Those two errors are retried (after the
 * per-request backoff, then through the limiter); other errors fail the append, as in none.
 */
final class AdaptiveThrottling extends RetryingStrategy {
  private final AdaptiveRateLimiter limiter;

  AdaptiveThrottling(Tuning tuning, ThrottleStats stats) {
    super(tuning, stats);
    limiter = new AdaptiveRateLimiter(tuning, System::nanoTime);
  }

  @Override
  protected long beforeAttempt(int rows) throws InterruptedException {
    return limiter.acquire(rows);
  }

  @Override
  protected void onSuccess(int rows) {
    limiter.succeeded(rows);
  }

  @Override
  protected boolean retries(Exception e, QuotaReason reason) {
    return reason == QuotaReason.RATE_LIMIT_EXCEEDED || reason == QuotaReason.QUOTA_EXCEEDED;
  }

  @Override
  protected long onError(QuotaReason reason, long epoch, long backoffMillis) {
    limiter.slowDown(epoch);
    return backoffMillis;
  }

  /** Rows/s the limiter allows now (infinite before the first error without an initial rate). */
  double rate() {
    return limiter.rate();
  }
}
