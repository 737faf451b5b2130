package io.streamlab.ratesearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.ratesearch.RateSearch.StopRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search on a fake system that sustains every rate up to a known capacity: no brokers. */
class RateSearchTest {
  /** The two configurations in use: streamlab run --mode=max, and streamlab loadtest --maxRate. */
  private static RateSearch labRun(double start, int maxSteps) {
    return new RateSearch(start, 1.5, StopRule.within(0.05), maxSteps);
  }

  private static RateSearch loadtest(double start, int bisections, int maxSteps) {
    return new RateSearch(start, 2, StopRule.afterBisections(bisections), maxSteps);
  }

  /** What a search tried against a system of {@code capacity}, and what it found. */
  private record Run(List<Double> tried, double found) {}

  private static Run run(RateSearch search, double capacity) throws Exception {
    return run(search, (rate, step) -> rate <= capacity);
  }

  /** What a search tried against a system whose verdict on each step is {@code system}'s. */
  private static Run run(RateSearch search, RateSearch.Trial system) throws Exception {
    List<Double> tried = new ArrayList<>();
    double found = search.highestSustained((rate, step) -> {
      assertEquals(tried.size(), step, "steps are numbered from 0, a repeat has its own");
      tried.add(rate);
      return system.sustains(rate, step);
    });
    return new Run(tried, found);
  }

  @Test
  void growsByHalfThenBisectsToWithinFivePercent() throws Exception {
    Run r = run(labRun(10_000, 20), 40_000);
    assertEquals(List.of(10_000.0, 15_000.0, 22_500.0, 33_750.0, 50_625.0), r.tried().subList(0, 5));
    assertTrue(r.found() <= 40_000 && r.found() >= 40_000 * 0.95, "" + r.found());
  }

  @Test
  void doublesThenBisectsAFixedNumberOfTimes() throws Exception {
    Run r = run(loadtest(1_000, 4, 20), 11_000);
    // 1k 2k 4k 8k pass, 16k fails; then 12k, 10k, 11k, 11.5k
    assertEquals(List.of(1_000.0, 2_000.0, 4_000.0, 8_000.0, 16_000.0, 12_000.0, 10_000.0, 11_000.0, 11_500.0),
        r.tried());
    assertEquals(11_000, r.found());
  }

  @Test
  void convergesToTheLimitWithinThePrecision() throws Exception {
    for (double capacity : new double[] {1_234, 40_000, 777_777}) {
      Run r = run(labRun(1_000, 100), capacity);
      assertTrue(r.found() <= capacity && r.found() >= capacity * 0.95, capacity + ": " + r.found());
      // and stops there: the last failing rate is within 5 % of what was found
      double lowestFailing = r.tried().stream().filter(t -> t > capacity).mapToDouble(t -> t).min().orElseThrow();
      assertTrue((lowestFailing - r.found()) / lowestFailing <= 0.05, capacity + ": " + r.tried());
    }
  }

  @Test
  void bisectionsHalveTheGapEachTime() throws Exception {
    // doubling ends with a gap of the last passing rate; n bisections leave gap / 2^n
    for (int n = 0; n <= 6; n++) {
      Run r = run(loadtest(1_000, n, 100), 11_000);
      assertEquals(5 + n, r.tried().size(), "bisections " + n);
      assertTrue(11_000 - r.found() <= 8_000 / Math.pow(2, n), n + ": " + r.found());
    }
  }

  @Test
  void stopsAfterMaxSteps() throws Exception {
    assertEquals(3, run(labRun(10_000, 3), 1e9).tried().size());
    assertEquals(3, run(loadtest(10_000, 5, 3), 1e9).tried().size());
    assertEquals(4, run(labRun(10_000, 4), 12_000).tried().size(), "in the bisection too");
    assertEquals(7, run(loadtest(1_000, 10, 7), 11_000).tried().size(), "the step limit beats the bisections");
  }

  @Test
  void everythingSustainedReportsTheLastRate() throws Exception {
    assertEquals(10_000 * 1.5 * 1.5 * 1.5, run(labRun(10_000, 4), Double.MAX_VALUE).found());
    assertEquals(1_000 * 2 * 2, run(loadtest(1_000, 3, 3), Double.MAX_VALUE).found());
  }

  @Test
  void aFailingStartIsRunAgainThenBisectsDownwards() throws Exception {
    assertEquals(List.of(10_000.0, 10_000.0, 5_000.0, 2_500.0, 3_750.0, 3_125.0), run(labRun(10_000, 6), 3_000).tried());
    assertEquals(List.of(10_000.0), run(labRun(10_000, 1), 3_000).tried(), "no step left for the repeat");
  }

  @Test
  void aStartFailedOnceByStartUpDoesNotCapTheSearch() throws Exception {
    // a system that fails its first step alone (start-up), then sustains up to 40,000
    Run r = run(labRun(10_000, 20), (rate, step) -> step > 0 && rate <= 40_000);
    assertEquals(List.of(10_000.0, 10_000.0, 15_000.0, 22_500.0, 33_750.0, 50_625.0), r.tried().subList(0, 6));
    assertTrue(r.found() <= 40_000 && r.found() >= 40_000 * 0.95, "" + r.found());
  }

  @Test
  void nothingSustainedReportsZero() throws Exception {
    Run lab = run(labRun(10_000, 8), 0);
    assertEquals(0, lab.found());
    assertEquals(8, lab.tried().size(), "a 5 % precision is never reached above 0: the step limit ends it");
    Run lt = run(loadtest(1_000, 2, 20), 0);
    assertEquals(0, lt.found());
    assertEquals(List.of(1_000.0, 1_000.0, 500.0, 250.0), lt.tried());
  }

  @Test
  void rejectsASearchThatCannotRun() {
    assertThrows(IllegalArgumentException.class, () -> labRun(0, 8));
    assertThrows(IllegalArgumentException.class, () -> labRun(1_000, 0));
    assertThrows(IllegalArgumentException.class, () -> new RateSearch(1_000, 1, StopRule.within(0.05), 8));
    assertThrows(IllegalArgumentException.class, () -> StopRule.within(0));
    assertThrows(IllegalArgumentException.class, () -> StopRule.afterBisections(-1));
  }
}
