package io.streamlab.cli;

import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.ThrottleSpec;
import io.streamlab.store.throttle.WriterPool;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** How the pipeline's table writers throttle and retry. Shared by ingest and run. */
public interface ThrottleOptions extends TuningOptions, QuotaOptions {
  @Description("Throttling strategy of the table writers: none, adaptive, shared-backoff, retry-any (see README, "
      + "sinkbench). DuckDB and PostgreSQL only: with --store=bigquery BigQueryIO retries by its own policy.")
  @Default.String(ThrottleSpec.DEFAULT_STRATEGY)
  String getThrottling();
  void setThrottling(String value);

  @Description("Writer thread pool per table: unbounded, single or a thread count.")
  @Default.String("unbounded")
  String getPool();
  void setPool(String value);

  @Description("Put the fake warehouse quota (--quota* limits) in front of the table, to try strategies through "
      + "the whole pipeline. Default: off.")
  boolean getFakeQuota();
  void setFakeQuota(boolean value);

  static ThrottleSpec toSpec(ThrottleOptions o) {
    return new ThrottleSpec(Strategy.parse(o.getThrottling()), WriterPool.parse(o.getPool()),
        TuningOptions.toTuning(o), o.getFakeQuota() ? QuotaOptions.toLimits(o) : null);
  }
}
