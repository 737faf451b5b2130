package io.streamlab.store.throttle;

import io.streamlab.store.quota.QuotaReason;

/**
 * {@code none}: what the original writer did. No throttle; a per-request exponential backoff
 * retries only rateLimitExceeded. quotaExceeded and every other error fail the append, hence the
 * bundle, which the runner retries: rows of the bundle already written are then written again
 * (duplicated, never lost).
 */
final class NoThrottling extends RetryingStrategy {
  NoThrottling(Tuning tuning, ThrottleStats stats) {
    super(tuning, stats);
  }

  @Override
  protected boolean retries(Exception e, QuotaReason reason) {
    return reason == QuotaReason.RATE_LIMIT_EXCEEDED;
  }
}
