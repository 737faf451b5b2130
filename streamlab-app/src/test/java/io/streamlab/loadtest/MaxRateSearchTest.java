package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search logic on given trial outcomes (a broker that sustains up to a known capacity). */
class MaxRateSearchTest {
  private static final LoadtestSettings BASE = new LoadtestSettings(Role.BOTH, "t", "s", 1, MessageSizes.parse("1KB"),
      1, 1, 1, 1, 1_000, Duration.ZERO, Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(1),
      Duration.ofSeconds(10), ClientSettings.DEFAULTS, 0, 1);

  /** A point at {@code rate} on a system whose capacity is {@code capacity} msg/s. */
  private static PointResult point(double rate, double capacity) {
    double achieved = Math.min(rate, capacity * 1.2); // publishers outrun subscribers a little
    double consumed = Math.min(rate, capacity);
    long growth = (long) ((achieved - consumed) * 10);
    return new PointResult("r", "test", BASE.withRate(rate), 10, achieved, achieved / 1e3, consumed, consumed / 1e3,
        Percentiles.NONE, Percentiles.NONE, Percentiles.NONE, 0, 0, 0, null, 0, 0, 0, 0, 0, 100, 100 + growth, null, 1,
        List.of());
  }

  @Test
  void findsTheCapacityWithinTheBisectionResolution() throws Exception {
    double capacity = 11_000;
    MaxRateSearch.Outcome outcome = new MaxRateSearch(1_000, 4, 20).search((rate, n) -> point(rate, capacity));
    // doubling: 1k 2k 4k 8k pass, 16k fails; bisecting 8k..16k four times -> within 500 msg/s,
    // and a rate passes while the subscribers keep up with 95 % of it
    double found = outcome.highestSustained();
    assertTrue(found > capacity - 500 && found <= capacity / MaxRateSearch.ACHIEVED_FRACTION, "found " + found);
    assertEquals(5 + 4, outcome.steps().size());
  }

  @Test
  void aGrowingBacklogOrAShortfallFails() {
    assertTrue(MaxRateSearch.sustained(point(5_000, 6_000)));
    assertFalse(MaxRateSearch.sustained(point(5_000, 4_000)), "backlog grows by 1,000/s");
    assertFalse(MaxRateSearch.sustained(point(50_000, 30_000)), "publishers reach only 36,000/s");
  }

  @Test
  void reportsZeroWhenEvenTheStartRateFails() throws Exception {
    MaxRateSearch.Outcome outcome = new MaxRateSearch(1_000, 2, 20).search((rate, n) -> point(rate, 100));
    assertEquals(0, outcome.highestSustained());
  }
}
