package io.streamlab.cli;

import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.ThrottleSpec;
import io.streamlab.store.throttle.WriterPool;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** How the pipeline's table writers throttle and retry. Shared by ingest and run. */
final class ThrottleOptions {
  @Option(names = "--throttling", defaultValue = ThrottleSpec.DEFAULT_STRATEGY,
      description = "Throttling strategy of the table writers: none, adaptive, shared-backoff, retry-any "
          + "(see README, sinkbench). DuckDB and PostgreSQL only: with --store=bigquery BigQueryIO retries by its "
          + "own policy. Default: ${DEFAULT-VALUE}.")
  String throttling;

  @Option(names = "--pool", defaultValue = "unbounded",
      description = "Writer thread pool per table: unbounded, single or a thread count. Default: ${DEFAULT-VALUE}.")
  String pool;

  @Option(names = "--fakeQuota",
      description = "Put the fake warehouse quota (--quota* limits) in front of the table, to try strategies "
          + "through the whole pipeline. Default: off.")
  boolean fakeQuota;

  @Mixin TuningOptions tuning;
  @Mixin QuotaOptions quota;

  ThrottleSpec toSpec() {
    return new ThrottleSpec(Strategy.parse(throttling), WriterPool.parse(pool), tuning.toTuning(),
        fakeQuota ? quota.toLimits() : null);
  }

  List<String> asArgs() {
    List<String> a = new ArrayList<>(List.of("--throttling=" + throttling, "--pool=" + pool));
    if (fakeQuota) a.add("--fakeQuota");
    a.addAll(tuning.asArgs());
    a.addAll(quota.asArgs());
    return a;
  }
}
