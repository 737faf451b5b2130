package io.streamlab.ratesearch;

/**
 * The search for the highest rate a system sustains, shared by {@code streamlab run --mode=max}
 * and {@code streamlab loadtest --maxRate}: grow the rate by a factor from the start rate while
 * every step is sustained; after the first failing step, bisect between the highest sustained
 * and the lowest failing rate until the {@link StopRule} is met; never run more than
 * {@code maxSteps} steps. A failing start rate is run once more, and bisects downwards (between 0
 * and it) only if it fails again: the first step is the one a system's start-up (its JIT, its
 * connections, a neighbour's burst on a shared machine) can fail on its own, and a search that
 * took that failure for the limit would never try a rate above the start again.
 *
 * <p>What "sustained" means is the caller's: the search only sees each step's verdict.
 */
public final class RateSearch {
  /** Runs one step at a rate and judges it. */
  @FunctionalInterface
  public interface Trial {
    /** @param step 0 for the first step of the search, then 1, 2, ... */
    boolean sustains(double ratePerSec, int step) throws Exception;
  }

  /** When the bisection, which starts at the first failing step, has gone far enough. */
  @FunctionalInterface
  public interface StopRule {
    /**
     * @param highestSustained 0 while no step was sustained
     * @param bisections the steps run since the first failing one
     */
    boolean done(double highestSustained, double lowestFailing, int bisections);

    /** Until the highest sustained rate is within {@code fraction} of the lowest failing one. */
    static StopRule within(double fraction) {
      if (!(fraction > 0 && fraction < 1)) throw new IllegalArgumentException("precision must be in (0, 1): " + fraction);
      return (highest, lowestFailing, bisections) -> (lowestFailing - highest) / lowestFailing <= fraction;
    }

    /** After a fixed number of bisection steps (0: stop at the first failing rate). */
    static StopRule afterBisections(int count) {
      if (count < 0) throw new IllegalArgumentException("bisections must be >= 0: " + count);
      return (highest, lowestFailing, bisections) -> bisections >= count;
    }
  }

  private final double startRate;
  private final double growth;
  private final StopRule stopRule;
  private final int maxSteps;

  /**
   * @param growth the factor the rate grows by while every step is sustained (> 1)
   * @param maxSteps most steps in all, growing and bisecting
   */
  public RateSearch(double startRate, double growth, StopRule stopRule, int maxSteps) {
    if (!(startRate > 0)) throw new IllegalArgumentException("a max-rate search needs a start rate > 0 (--ratePerSec)");
    if (!(growth > 1)) throw new IllegalArgumentException("the rate must grow by a factor > 1: " + growth);
    if (maxSteps < 1) throw new IllegalArgumentException("a max-rate search needs at least one step: " + maxSteps);
    this.startRate = startRate;
    this.growth = growth;
    this.stopRule = stopRule;
    this.maxSteps = maxSteps;
  }

  /**
   * Runs the steps one after another.
   *
   * @return the highest sustained rate, 0 when no step was sustained
   */
  public double highestSustained(Trial trial) throws Exception {
    double highest = 0;
    double lowestFailing = Double.POSITIVE_INFINITY;
    double rate = startRate;
    int bisections = 0;
    for (int step = 0; step < maxSteps; step++) {
      boolean bisecting = lowestFailing != Double.POSITIVE_INFINITY;
      if (bisecting && stopRule.done(highest, lowestFailing, bisections)) break;
      boolean sustained = trial.sustains(rate, step);
      if (!sustained && step == 0 && step + 1 < maxSteps) sustained = trial.sustains(rate, ++step);
      if (sustained) highest = Math.max(highest, rate);
      else lowestFailing = Math.min(lowestFailing, rate);
      if (bisecting) bisections++;
      rate = lowestFailing == Double.POSITIVE_INFINITY ? rate * growth : (highest + lowestFailing) / 2;
    }
    return highest;
  }
}
