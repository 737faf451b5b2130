package io.streamlab.cli;

import io.streamlab.store.quota.QuotaLimits;
import java.util.List;
import picocli.CommandLine.Option;

/** The fake warehouse quota's limits (per table; 0 = unlimited). Shared by sinkbench, ingest and run. */
final class QuotaOptions {
  @Option(names = "--quotaRowsPerSec", defaultValue = "" + QuotaLimits.DEFAULT_ROWS_PER_SEC,
      description = "Quota: rows per second per table, then quotaExceeded. Default: ${DEFAULT-VALUE} "
          + "(scaled to this machine, see README).")
  long rowsPerSec;

  @Option(names = "--quotaBytesPerSec", defaultValue = "" + QuotaLimits.DEFAULT_BYTES_PER_SEC,
      description = "Quota: bytes (Avro binary) per second per table, then quotaExceeded. Default: ${DEFAULT-VALUE}.")
  long bytesPerSec;

  @Option(names = "--quotaMaxRowsPerRequest", defaultValue = "" + QuotaLimits.DEFAULT_MAX_ROWS_PER_REQUEST,
      description = "Quota: most rows in one request (writers split appends to fit). Default: ${DEFAULT-VALUE}.")
  int maxRowsPerRequest;

  @Option(names = "--quotaMaxBytesPerRequest", defaultValue = "" + QuotaLimits.DEFAULT_MAX_BYTES_PER_REQUEST,
      description = "Quota: most bytes in one request (writers split appends to fit). Default: ${DEFAULT-VALUE}.")
  long maxBytesPerRequest;

  @Option(names = "--quotaMaxConcurrentRequests", defaultValue = "" + QuotaLimits.DEFAULT_MAX_CONCURRENT_REQUESTS,
      description = "Quota: most requests in flight per table, then rateLimitExceeded. Default: ${DEFAULT-VALUE}.")
  int maxConcurrentRequests;

  @Option(names = "--quotaTransientFailureRate", defaultValue = "0.001",
      description = "Quota: probability that a request fails with a transient backendError (seeded). Default: ${DEFAULT-VALUE}.")
  double transientFailureRate;

  @Option(names = "--quotaSeed", defaultValue = "42", description = "Seed of the transient failures. Default: ${DEFAULT-VALUE}.")
  long seed;

  QuotaLimits toLimits() {
    return new QuotaLimits(rowsPerSec, bytesPerSec, maxRowsPerRequest, maxBytesPerRequest, maxConcurrentRequests,
        transientFailureRate, seed);
  }

  List<String> asArgs() {
    return List.of("--quotaRowsPerSec=" + rowsPerSec, "--quotaBytesPerSec=" + bytesPerSec,
        "--quotaMaxRowsPerRequest=" + maxRowsPerRequest, "--quotaMaxBytesPerRequest=" + maxBytesPerRequest,
        "--quotaMaxConcurrentRequests=" + maxConcurrentRequests,
        "--quotaTransientFailureRate=" + transientFailureRate, "--quotaSeed=" + seed);
  }
}
