package io.streamlab.cli;

import io.streamlab.store.throttle.Tuning;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Backoff and adaptive-limiter knobs of the throttling strategies. Shared by sinkbench, ingest and run. */
public interface TuningOptions extends PipelineOptions {
  @Description("First retry backoff (doubles per retry, jittered 50-100 %).")
  @Default.String("100ms")
  String getBackoffInitial();
  void setBackoffInitial(String value);

  @Description("Longest retry backoff.")
  @Default.String("5s")
  String getBackoffMax();
  void setBackoffMax(String value);

  @Description("Retries of one request before its error fails the append (and the bundle); 0 = unlimited.")
  @Default.Integer(50)
  int getMaxRetries();
  void setMaxRetries(int value);

  @Description("adaptive: raise the rate after this long without an error.")
  @Default.String("60s")
  String getAdaptiveInterval();
  void setAdaptiveInterval(String value);

  @Description("adaptive: raise the rate by this many percent.")
  @Default.Double(1)
  double getAdaptiveIncreasePercent();
  void setAdaptiveIncreasePercent(double value);

  @Description("adaptive: lower the rate by this many percent after an error.")
  @Default.Double(5)
  double getAdaptiveDecreasePercent();
  void setAdaptiveDecreasePercent(double value);

  @Description("adaptive: starting rate, rows/s per table; 0 = unlimited until the first error, then the rate "
      + "observed before it.")
  @Default.Double(0)
  double getAdaptiveInitialRate();
  void setAdaptiveInitialRate(double value);

  static Tuning toTuning(TuningOptions o) {
    return new Tuning(millis("--backoffInitial", o.getBackoffInitial()), millis("--backoffMax", o.getBackoffMax()),
        o.getMaxRetries(), millis("--adaptiveInterval", o.getAdaptiveInterval()), o.getAdaptiveIncreasePercent(),
        o.getAdaptiveDecreasePercent(), o.getAdaptiveInitialRate());
  }

  /** A duration option (500ms, 30s, 2m) in milliseconds; a bad one is a user error naming its flag. */
  static long millis(String flag, String duration) {
    try {
      return new DurationConverter().convert(duration).toMillis();
    } catch (picocli.CommandLine.TypeConversionException e) {
      throw new IllegalArgumentException(flag + ": " + e.getMessage());
    }
  }
}
