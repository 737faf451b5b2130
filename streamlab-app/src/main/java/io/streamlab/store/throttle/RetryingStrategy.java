package io.streamlab.store.throttle;

import io.streamlab.store.TableWriter;
import io.streamlab.store.quota.QuotaException;
import io.streamlab.store.quota.QuotaReason;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The send loop every strategy shares: (wait as the strategy says) -> attempt -> on error, retry
 * if the strategy retries that error, after an exponential per-request backoff, up to
 * {@link Tuning#maxRetries()}. Strategies differ only in the hooks.
 */
abstract class RetryingStrategy implements ThrottlingStrategy {
  protected final Tuning tuning;
  private final ThrottleStats stats;

  RetryingStrategy(Tuning tuning, ThrottleStats stats) {
    this.tuning = tuning;
    this.stats = stats;
  }

  /** Before each attempt: may wait; returns a token handed to {@link #onError} for that attempt. */
  protected long beforeAttempt(int rows) throws InterruptedException {
    return 0;
  }

  protected void onSuccess(int rows) {}

  /** Whether an error of this reason (null = not a quota refusal) is retried. */
  protected abstract boolean retries(Exception e, QuotaReason reason);

  /**
   * After a retried error: returns how long this request waits before its next attempt.
   *
   * @param token what {@link #beforeAttempt} returned for the failed attempt
   * @param backoffMillis this request's current exponential backoff
   */
  protected long onError(QuotaReason reason, long token, long backoffMillis) {
    return backoffMillis;
  }

  @Override
  public final long send(Request request) throws Exception {
    long backoff = tuning.backoffInitialMillis();
    for (int retry = 0; ; retry++) {
      long token = beforeAttempt(request.rows());
      stats.attempt();
      try {
        long writeTime = request.attempt();
        stats.written(request.rows());
        onSuccess(request.rows());
        return writeTime;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        stats.error(e);
        QuotaReason reason = QuotaException.reasonOf(e);
        // lost held appends: retrying this request would not bring them back, only a replay does
        if (reason == QuotaReason.INVALID || TableWriter.HeldAppendsLost.in(e) != null || !retries(e, reason)
            || (tuning.maxRetries() > 0 && retry >= tuning.maxRetries())) {
          throw e;
        }
        stats.retry();
        sleepJittered(onError(reason, token, backoff));
        backoff = Math.min(tuning.backoffMaxMillis(), backoff * 2);
      }
    }
  }

  /** Sleeps 50-100 % of {@code millis}: clients that failed together do not retry together. */
  static void sleepJittered(long millis) throws InterruptedException {
    if (millis <= 0) return;
    Thread.sleep(jittered(millis));
  }

  static long jittered(long millis) {
    return millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
  }
}
