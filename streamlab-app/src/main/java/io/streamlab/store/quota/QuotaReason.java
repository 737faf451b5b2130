package io.streamlab.store.quota;

/** Why the (fake) warehouse refused a request; wire names as BigQuery reports them. */
public enum QuotaReason {
  /** Too many requests at once: BigQuery says retry after a backoff. */
  RATE_LIMIT_EXCEEDED("rateLimitExceeded"),
  /** The table's rows/s or bytes/s quota is used up: the original writer did not retry this. */
  QUOTA_EXCEEDED("quotaExceeded"),
  /** A random transient server-side failure (seeded), as a 5xx from the service. */
  BACKEND_ERROR("backendError"),
  /** The request itself is over the per-request row or byte limit: retrying it cannot help. */
  INVALID("invalid");

  private final String wireName;

  QuotaReason(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
