package io.streamlab.cli;

import io.streamlab.store.quota.QuotaLimits;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The fake warehouse quota's limits (per table; 0 = unlimited). Shared by sinkbench, ingest and run. */
public interface QuotaOptions extends PipelineOptions {
  @Description("Quota: rows per second per table, then quotaExceeded (scaled to this machine, see README).")
  @Default.Long(QuotaLimits.DEFAULT_ROWS_PER_SEC)
  long getQuotaRowsPerSec();
  void setQuotaRowsPerSec(long value);

  @Description("Quota: bytes (Avro binary) per second per table, then quotaExceeded.")
  @Default.Long(QuotaLimits.DEFAULT_BYTES_PER_SEC)
  long getQuotaBytesPerSec();
  void setQuotaBytesPerSec(long value);

  @Description("Quota: most rows in one request (writers split appends to fit).")
  @Default.Integer(QuotaLimits.DEFAULT_MAX_ROWS_PER_REQUEST)
  int getQuotaMaxRowsPerRequest();
  void setQuotaMaxRowsPerRequest(int value);

  @Description("Quota: most bytes in one request (writers split appends to fit).")
  @Default.Long(QuotaLimits.DEFAULT_MAX_BYTES_PER_REQUEST)
  long getQuotaMaxBytesPerRequest();
  void setQuotaMaxBytesPerRequest(long value);

  @Description("Quota: most requests in flight per table, then rateLimitExceeded.")
  @Default.Integer(QuotaLimits.DEFAULT_MAX_CONCURRENT_REQUESTS)
  int getQuotaMaxConcurrentRequests();
  void setQuotaMaxConcurrentRequests(int value);

  @Description("Quota: probability that a request fails with a transient backendError (seeded).")
  @Default.Double(0.001)
  double getQuotaTransientFailureRate();
  void setQuotaTransientFailureRate(double value);

  @Description("Seed of the transient failures.")
  @Default.Long(42)
  long getQuotaSeed();
  void setQuotaSeed(long value);

  static QuotaLimits toLimits(QuotaOptions o) {
    return new QuotaLimits(o.getQuotaRowsPerSec(), o.getQuotaBytesPerSec(), o.getQuotaMaxRowsPerRequest(),
        o.getQuotaMaxBytesPerRequest(), o.getQuotaMaxConcurrentRequests(), o.getQuotaTransientFailureRate(),
        o.getQuotaSeed());
  }
}
