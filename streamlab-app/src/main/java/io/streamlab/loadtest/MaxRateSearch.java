package io.streamlab.loadtest;

import io.streamlab.ratesearch.RateSearch;
import java.util.ArrayList;
import java.util.List;

/**
 * The loadtest's max-rate search: the verdict on a point (below) and the points it ran, for the
 * reports. The search itself is {@link RateSearch}: the rate doubles from the start rate until a
 * trial fails (the start rate twice), then a fixed number of bisections between the last pass and
 * the first failure.
 *
 * <p>A rate passes when the publishers achieved it and the backlog stayed bounded, both within
 * 5 % (the backlog grew by less than 5 % of the target rate over the window, so the subscribers
 * kept up with at least 95 % of it; the tolerance absorbs the in-flight messages a single backlog
 * reading sees).
 */
public final class MaxRateSearch {
  /** Runs one point at a given rate (each trial on its own topic). */
  @FunctionalInterface
  public interface Trial {
    PointResult run(double ratePerSec, int trialNumber) throws Exception;
  }

  /** One trial's verdict. */
  public record Step(double ratePerSec, boolean sustained, PointResult result) {}

  /** @param highestSustained 0 when even the start rate failed */
  public record Outcome(double highestSustained, List<Step> steps) {}

  static final double ACHIEVED_FRACTION = 0.95;
  /** Doubling reaches a far-off limit in few trials; the fixed bisections then bound the run time. */
  static final double GROWTH = 2;

  private final RateSearch search;

  public MaxRateSearch(double startRate, int bisections, int maxTrials) {
    this.search = new RateSearch(startRate, GROWTH, RateSearch.StopRule.afterBisections(bisections), maxTrials);
  }

  /** Whether the point sustained its target rate with a bounded backlog. */
  public static boolean sustained(PointResult r) {
    double target = r.settings().ratePerSec();
    boolean achieved = r.publishMessagesPerSecond() >= ACHIEVED_FRACTION * target;
    long growth = r.backlogAtWindowEnd() - r.backlogAtWindowStart();
    boolean bounded = r.backlogAtWindowEnd() < 0 || growth <= (1 - ACHIEVED_FRACTION) * target * r.windowSeconds();
    return achieved && bounded && r.publishErrors() == 0;
  }

  public Outcome search(Trial trial) throws Exception {
    List<Step> steps = new ArrayList<>();
    double highest = search.highestSustained((rate, n) -> {
      PointResult r = trial.run(rate, n);
      Step step = new Step(rate, sustained(r), r);
      steps.add(step);
      return step.sustained();
    });
    return new Outcome(highest, steps);
  }
}
