package io.streamlab.store.throttle;

import io.streamlab.store.quota.QuotaReason;

/**
 * {@code retry-any}: no throttle, but every error (quotaExceeded, backendError, a store error) is
 * retried with the same per-request exponential backoff as a rate-limit error, so a bundle fails
 * only after {@link Tuning#maxRetries()} attempts of one request. Only an invalid request is not
 * retried: the same request would be refused again.
 */
final class RetryAnyThrottling extends RetryingStrategy {
  RetryAnyThrottling(Tuning tuning, ThrottleStats stats) {
    super(tuning, stats);
  }

  @Override
  protected boolean retries(Exception e, QuotaReason reason) {
    return true;
  }
}
