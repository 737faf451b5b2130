package io.streamlab.store.throttle;

/**
 * How a writer sends one request to a store that may refuse it (quota, rate limit, transient
 * failure): when to wait, what to retry, when to give up. One instance per table in the JVM, so
 * strategies with shared state (a rate limiter, a shared backoff) share it across all writers.
 */
public interface ThrottlingStrategy {
  /** One request: a batch of rows small enough for the store's per-request limits. */
  interface Request {
    int rows();

    /** Sends the request once; returns the write time the store stamped on its rows. */
    long attempt() throws Exception;
  }

  /**
   * Sends the request, waiting and retrying as the strategy does.
   *
   * @return the write time of the attempt that succeeded
   * @throws Exception the last error, when the strategy does not retry it (or gives up): the
   *     append fails, and with it the bundle, which the runner retries
   */
  long send(Request request) throws Exception;
}
