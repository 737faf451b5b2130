package io.streamlab.cli;

import io.streamlab.store.throttle.Tuning;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Backoff and adaptive-limiter knobs of the throttling strategies. Shared by sinkbench, ingest and run. */
final class TuningOptions {
  @Option(names = "--backoffInitial", defaultValue = "100ms", converter = DurationConverter.class,
      description = "First retry backoff (doubles per retry, jittered 50-100 %%). Default: ${DEFAULT-VALUE}.")
  Duration backoffInitial;

  @Option(names = "--backoffMax", defaultValue = "5s", converter = DurationConverter.class,
      description = "Longest retry backoff. Default: ${DEFAULT-VALUE}.")
  Duration backoffMax;

  @Option(names = "--maxRetries", defaultValue = "50",
      description = "Retries of one request before its error fails the append (and the bundle); 0 = unlimited. "
          + "Default: ${DEFAULT-VALUE}.")
  int maxRetries;

  @Option(names = "--adaptiveInterval", defaultValue = "60s", converter = DurationConverter.class,
      description = "adaptive: raise the rate after this long without an error. Default: ${DEFAULT-VALUE}.")
  Duration adaptiveInterval;

  @Option(names = "--adaptiveIncreasePercent", defaultValue = "1",
      description = "adaptive: raise the rate by this many percent. Default: ${DEFAULT-VALUE}.")
  double adaptiveIncreasePercent;

  @Option(names = "--adaptiveDecreasePercent", defaultValue = "5",
      description = "adaptive: lower the rate by this many percent after an error. Default: ${DEFAULT-VALUE}.")
  double adaptiveDecreasePercent;

  @Option(names = "--adaptiveInitialRate", defaultValue = "0",
      description = "adaptive: starting rate, rows/s per table; 0 = unlimited until the first error, then the rate "
          + "observed before it. Default: ${DEFAULT-VALUE}.")
  double adaptiveInitialRate;

  Tuning toTuning() {
    return new Tuning(backoffInitial.toMillis(), backoffMax.toMillis(), maxRetries, adaptiveInterval.toMillis(),
        adaptiveIncreasePercent, adaptiveDecreasePercent, adaptiveInitialRate);
  }

  List<String> asArgs() {
    return List.of("--backoffInitial=" + backoffInitial.toMillis() + "ms", "--backoffMax=" + backoffMax.toMillis() + "ms",
        "--maxRetries=" + maxRetries, "--adaptiveInterval=" + adaptiveInterval.toMillis() + "ms",
        "--adaptiveIncreasePercent=" + adaptiveIncreasePercent, "--adaptiveDecreasePercent=" + adaptiveDecreasePercent,
        "--adaptiveInitialRate=" + adaptiveInitialRate);
  }
}
