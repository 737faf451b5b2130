package io.streamlab.bench;

import java.util.List;

/**
 * One step of a max-rate search: the pipeline was fed {@code targetRate} for a step's length.
 *
 * @param backlogGrowth events behind at the end of the step minus at its start
 * @param lateIngestedShare events ingested per event generated over the step's second half (NaN
 *     when the step had too few samples to tell): 1 for a pipeline that keeps up
 * @param sustained the generator reached its rate, the pipeline kept up, p99 under the limit
 */
public record RateStep(double targetRate, double generatedRate, double ingestedRate, long backlogGrowth,
    double p99Millis, double lateIngestedShare, double megabytesPerSecondPerCore, boolean sustained) {

  /**
   * The least share of the events generated over a step's second half that must be ingested over
   * it. A pipeline that keeps up ingests, over any few seconds, what was generated in them, give or
   * take the events of one stall shorter than a second (a store's checkpoint, a collection): a
   * tenth of a 5 s half. One that falls behind by a tenth or more does not keep up, whatever its
   * backlog and p99 at the step's end (a 10 s step at 63,000 events/s that ingested 52,000/s ended
   * with a p99 under 2 s and a backlog under 2 s of events, and was taken for sustained).
   */
  static final double MIN_LATE_INGESTED_SHARE = 0.9;

  /**
   * A step is sustained when the generator reached 95 % of its target (else the generator, not
   * the pipeline, was the limit), the pipeline kept up over the step's second half
   * ({@link #MIN_LATE_INGESTED_SHARE}; a NaN share, too few samples, does not count against it),
   * the p99 latency stayed within the limit, and the backlog at the step's end is no more than the
   * events of that latency bound: a pipeline that keeps up still holds what is in flight (a
   * bundle's worth and more), but one that falls behind piles up more.
   */
  static boolean sustained(double targetRate, double generatedRate, long backlogGrowth, double p99Millis,
      double maxP99Millis, double lateIngestedShare) {
    return generatedRate >= 0.95 * targetRate && p99Millis <= maxP99Millis
        && backlogGrowth <= targetRate * maxP99Millis / 1000
        && !(lateIngestedShare < MIN_LATE_INGESTED_SHARE);
  }

  /** {@link #lateIngestedShare} as the search prints it: a percentage, or n/a. */
  String keptUpText() {
    return Double.isNaN(lateIngestedShare) ? "n/a" : String.format("%.0f %%", 100 * lateIngestedShare);
  }

  /**
   * The fewest seconds (sample intervals) a step's second half must span for its share to tell. At
   * low rates rows land once a bundle (up to a second, --maxBundleTimeMills), so over a half of 2 s
   * one bundle landing after the last sample instead of before it halves the share of a pipeline
   * that keeps up (a 5 s step at 1,000 events/s: p99 187 ms, share 0.4985).
   */
  static final int MIN_LATE_HALF_SECONDS = 4;

  /**
   * Events ingested per event generated between the middle and the end of a step, from its samples
   * (one a second, oldest first); NaN when that half spans fewer than {@link #MIN_LATE_HALF_SECONDS}
   * samples' intervals or nothing was generated in it.
   */
  static double lateIngestedShare(List<Sample> stepSamples) {
    int n = stepSamples.size(), midIndex = (n - 1) / 2;
    if (n - 1 - midIndex < MIN_LATE_HALF_SECONDS) return Double.NaN;
    Sample mid = stepSamples.get(midIndex), end = stepSamples.get(n - 1);
    long generated = end.generated() - mid.generated();
    return generated <= 0 ? Double.NaN : (double) (end.ingested() - mid.ingested()) / generated;
  }
}
