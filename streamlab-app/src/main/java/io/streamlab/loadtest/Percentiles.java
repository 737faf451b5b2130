package io.streamlab.loadtest;

import org.HdrHistogram.Histogram;

/** Latency percentiles in milliseconds, read from an HdrHistogram of microseconds. */
public record Percentiles(long count, double p50, double p75, double p90, double p95, double p99, double p999,
    double max) {
  public static final Percentiles NONE = new Percentiles(0, 0, 0, 0, 0, 0, 0, 0);

  public static Percentiles of(Histogram micros) {
    if (micros.getTotalCount() == 0) return NONE;
    return new Percentiles(micros.getTotalCount(), ms(micros, 50), ms(micros, 75), ms(micros, 90), ms(micros, 95),
        ms(micros, 99), ms(micros, 99.9), micros.getMaxValue() / 1e3);
  }

  private static double ms(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1e3;
  }

  /** "p50 3.1 p99 12.0 max 40.2 ms", for the console. */
  public String brief() {
    return count == 0 ? "-" : String.format("p50 %.1f p99 %.1f max %.1f ms", p50, p99, max);
  }
}
