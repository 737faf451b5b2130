package io.streamlab.store.quota;

import java.io.Serializable;

/**
 * The (fake) warehouse's limits for one table; 0 means unlimited. BigQuery's streaming limits
 * (1 GB/s per project, 50,000 rows and 10 MB per request, 500 rows recommended, hundreds of
 * concurrent requests) are far above what one 2-core machine can write to DuckDB, so the
 * {@link #defaults() defaults} are scaled down until the quota, not the store, is the limit:
 * two Flink writers appending 100-500-row requests to DuckDB managed ~650-2,200 rows/s here with
 * the machine shared (load average 6-20), so the quota is 1,000 rows/s (~1.1 KB rows: 1.1 MB/s,
 * under the 1.5 MB/s byte quota).
 *
 * @param rowsPerSec rows per second per table (token bucket, burst one second's worth)
 * @param bytesPerSec bytes per second per table (Avro binary size of the rows)
 * @param maxRowsPerRequest most rows in one request
 * @param maxBytesPerRequest most bytes in one request
 * @param maxConcurrentRequests most requests in flight per table
 * @param transientFailureRate probability that a request fails with backendError (0..1)
 * @param seed seed of the transient failures
 */
public record QuotaLimits(long rowsPerSec, long bytesPerSec, int maxRowsPerRequest, long maxBytesPerRequest,
    int maxConcurrentRequests, double transientFailureRate, long seed) implements Serializable {

  public static final long DEFAULT_ROWS_PER_SEC = 1_000;
  public static final long DEFAULT_BYTES_PER_SEC = 1_500_000;
  public static final int DEFAULT_MAX_ROWS_PER_REQUEST = 500;
  public static final long DEFAULT_MAX_BYTES_PER_REQUEST = 1_000_000;
  public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 4;

  public QuotaLimits {
    if (rowsPerSec < 0 || bytesPerSec < 0 || maxRowsPerRequest < 0 || maxBytesPerRequest < 0
        || maxConcurrentRequests < 0) {
      throw new IllegalArgumentException("quota limits must be >= 0 (0 = unlimited): " + this);
    }
    if (!(transientFailureRate >= 0 && transientFailureRate < 1)) {
      throw new IllegalArgumentException("transient failure rate must be in [0, 1): " + transientFailureRate);
    }
  }

  /** Scaled to this machine (see the class comment), without transient failures. */
  public static QuotaLimits defaults() {
    return new QuotaLimits(DEFAULT_ROWS_PER_SEC, DEFAULT_BYTES_PER_SEC, DEFAULT_MAX_ROWS_PER_REQUEST,
        DEFAULT_MAX_BYTES_PER_REQUEST, DEFAULT_MAX_CONCURRENT_REQUESTS, 0, 42);
  }
}
