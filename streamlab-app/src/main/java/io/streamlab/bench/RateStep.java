package io.streamlab.bench;

/**
 * One step of a max-rate search: the pipeline was fed {@code targetRate} for a step's length.
 *
 * @param backlogGrowth events behind at the end of the step minus at its start
 * @param sustained backlog growth within the bound and p99 under the limit
 */
public record RateStep(double targetRate, double generatedRate, double ingestedRate, long backlogGrowth,
    double p99Millis, double megabytesPerSecondPerCore, boolean sustained) {

  /**
   * A step is sustained when the generator reached 95 % of its target (else the generator, not
   * the pipeline, was the limit), the p99 latency stayed within the limit, and the backlog at the
   * step's end is no more than the events of that latency bound: a pipeline that keeps up still
   * holds what is in flight (a bundle's worth and more), but one that falls behind piles up more.
   */
  static boolean sustained(double targetRate, double generatedRate, long backlogGrowth, double p99Millis,
      double maxP99Millis) {
    return generatedRate >= 0.95 * targetRate && p99Millis <= maxP99Millis
        && backlogGrowth <= targetRate * maxP99Millis / 1000;
  }
}
