package io.streamlab.bench;

/**
 * The rate controller of a max-rate run, in the spirit of OpenMessaging Benchmark's: raise the
 * rate by half while the pipeline keeps up, then bisect between the highest rate it sustained
 * and the lowest it did not, until they are within 5 % or the steps run out.
 */
final class MaxRateSearch {
  static final double GROWTH = 1.5;
  static final double PRECISION = 0.05;

  private final int maxSteps;
  private double next;
  private double highestSustained;
  private double lowestFailed = Double.POSITIVE_INFINITY;
  private int steps;

  MaxRateSearch(double startRate, int maxSteps) {
    if (startRate <= 0) throw new IllegalArgumentException("a max-rate search needs a starting --ratePerSec > 0");
    this.next = startRate;
    this.maxSteps = maxSteps;
  }

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

  boolean hasNext() {
    if (steps >= maxSteps) return false;
    if (lowestFailed == Double.POSITIVE_INFINITY) return true;
    return (lowestFailed - highestSustained) / lowestFailed > PRECISION;
  }

  double next() {
    return next;
  }

  void report(double rate, boolean sustainedAtRate) {
    steps++;
    if (sustainedAtRate) highestSustained = Math.max(highestSustained, rate);
    else lowestFailed = Math.min(lowestFailed, rate);
    next = lowestFailed == Double.POSITIVE_INFINITY ? rate * GROWTH : (highestSustained + lowestFailed) / 2;
  }

  double highestSustained() {
    return highestSustained;
  }
}
