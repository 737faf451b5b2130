package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaxRateSearchTest {
  /** A pipeline that sustains anything up to {@code capacity}: the search must close in on it. */
  private static List<Double> search(double start, double capacity, int maxSteps) {
    MaxRateSearch s = new MaxRateSearch(start, maxSteps);
    List<Double> tried = new ArrayList<>();
    while (s.hasNext()) {
      double r = s.next();
      tried.add(r);
      s.report(r, r <= capacity);
    }
    return tried;
  }

  @Test
  void growsByHalfThenBisectsToWithinFivePercent() {
    List<Double> tried = search(10_000, 40_000, 20);
    assertEquals(List.of(10_000.0, 15_000.0, 22_500.0, 33_750.0, 50_625.0), tried.subList(0, 5));
    MaxRateSearch s = new MaxRateSearch(10_000, 20);
    for (double r : tried) s.report(r, r <= 40_000);
    assertTrue(s.highestSustained() <= 40_000 && s.highestSustained() >= 40_000 * 0.95, "" + s.highestSustained());
  }

  @Test
  void stopsAfterMaxSteps() {
    assertEquals(3, search(10_000, 1e9, 3).size());
  }

  @Test
  void aFailingStartBisectsDownwards() {
    List<Double> tried = search(10_000, 3_000, 5);
    assertEquals(List.of(10_000.0, 5_000.0, 2_500.0, 3_750.0, 3_125.0), tried);
  }

  @Test
  void sustainedNeedsTheRateTheBacklogAndTheLatency() {
    assertTrue(MaxRateSearch.sustained(10_000, 9_900, 5_000, 800, 1_000));
    assertTrue(MaxRateSearch.sustained(10_000, 9_900, 19_000, 1_900, 2_000), "2 s bound: 2 s of events in flight");
    assertFalse(MaxRateSearch.sustained(10_000, 9_000, 0, 100, 1_000), "generator fell short");
    assertFalse(MaxRateSearch.sustained(10_000, 10_000, 10_001, 100, 1_000), "backlog > the bound's events");
    assertFalse(MaxRateSearch.sustained(10_000, 10_000, 0, 1_001, 1_000), "p99 over the limit");
  }
}
