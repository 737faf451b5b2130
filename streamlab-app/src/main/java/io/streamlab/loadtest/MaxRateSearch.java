package io.streamlab.loadtest;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the highest publish rate the broker and subscribers sustain: a rate passes when the
 * publishers achieved it and the backlog stayed bounded, both within 5 % (the backlog grew by
 * less than 5 % of the target rate over the window, so the subscribers kept up with at least
 * 95 % of it; the tolerance absorbs the in-flight messages a single backlog reading sees). The
 * rate doubles from the start rate until a trial fails, then bisects between the last pass and
 * the first failure.
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

  private final double startRate;
  private final int bisections;
  private final int maxTrials;

  public MaxRateSearch(double startRate, int bisections, int maxTrials) {
    if (startRate <= 0) throw new IllegalArgumentException("--maxRate needs a start rate > 0 (--ratePerSec)");
    this.startRate = startRate;
    this.bisections = bisections;
    this.maxTrials = maxTrials;
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
    double pass = 0, fail = 0, rate = startRate;
    while (fail == 0 && steps.size() < maxTrials) {
      Step step = step(trial, rate, steps.size());
      steps.add(step);
      if (step.sustained()) {
        pass = rate;
        rate *= 2;
      } else {
        fail = rate;
      }
    }
    for (int i = 0; i < bisections && fail > 0 && steps.size() < maxTrials; i++) {
      rate = pass == 0 ? fail / 2 : (pass + fail) / 2;
      Step step = step(trial, rate, steps.size());
      steps.add(step);
      if (step.sustained()) pass = rate;
      else fail = rate;
    }
    return new Outcome(pass, steps);
  }

  private static Step step(Trial trial, double rate, int n) throws Exception {
    PointResult r = trial.run(rate, n);
    return new Step(rate, sustained(r), r);
  }
}
