package io.streamlab.bench;

import org.HdrHistogram.Histogram;

/** The arithmetic behind the figures every run reports, in one place so it is tested once. */
public final class Rates {
  private Rates() {}

  /** Payload megabytes (10^6 B) per CPU-second: the study's "MB/s per core". 0 without CPU time. */
  public static double perCore(long bytes, double cpuSeconds) {
    return cpuSeconds > 0 ? bytes / 1e6 / cpuSeconds : 0;
  }

  /** Events or bytes per second over a span; 0 for an empty span. */
  public static double perSecond(double amount, double seconds) {
    return seconds > 0 ? amount / seconds : 0;
  }

  /** A latency percentile (histogram in micros) in milliseconds; 0 for an empty histogram. */
  public static double percentileMillis(Histogram micros, double percentile) {
    return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile) / 1e3;
  }
}
