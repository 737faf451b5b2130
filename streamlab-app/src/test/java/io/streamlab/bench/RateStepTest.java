package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateStepTest {
  private static final double KEPT_UP = 1.0;

  @Test
  void sustainedNeedsTheRateTheBacklogAndTheLatency() {
    assertTrue(RateStep.sustained(10_000, 9_900, 5_000, 800, 1_000, KEPT_UP));
    assertTrue(RateStep.sustained(10_000, 9_900, 19_000, 1_900, 2_000, KEPT_UP), "2 s bound: 2 s of events in flight");
    assertFalse(RateStep.sustained(10_000, 9_000, 0, 100, 1_000, KEPT_UP), "generator fell short");
    assertFalse(RateStep.sustained(10_000, 10_000, 10_001, 100, 1_000, KEPT_UP), "backlog > the bound's events");
    assertFalse(RateStep.sustained(10_000, 10_000, 0, 1_001, 1_000, KEPT_UP), "p99 over the limit");
  }

  @Test
  void aPipelineThatFallsBehindIsNotSustainedThoughItsBacklogAndP99AreWithinTheBound() {
    // the step seen in a bench: 63,281/s for 10 s, 52,428/s ingested, backlog +106,999, p99 1,949 ms
    assertTrue(RateStep.sustained(63_281, 63_096, 106_999, 1_949, 2_000, Double.NaN), "the old rule took it");
    assertFalse(RateStep.sustained(63_281, 63_096, 106_999, 1_949, 2_000, 0.83), "ingesting 83 % is not keeping up");
    assertTrue(RateStep.sustained(63_281, 63_096, 10_000, 300, 2_000, RateStep.MIN_LATE_INGESTED_SHARE));
  }

  @Test
  void theLateShareComparesTheStepsSecondHalf() {
    // 10 samples a second apart: 10,000 generated a second; ingestion keeps up for 5 s, then 8,000/s
    List<Sample> samples = new ArrayList<>();
    long ingested = 0;
    for (int k = 0; k < 10; k++) {
      samples.add(sample(k, 10_000L * (k + 1), ingested));
      ingested += k < 4 ? 10_000 : 8_000;
    }
    // from sample 4 to sample 9: 50,000 generated, 40,000 ingested
    assertEquals(0.8, RateStep.lateIngestedShare(samples), 1e-9);
    // 8 samples: from sample 3 to sample 7, a half of 4 s: 40,000 generated, 34,000 ingested;
    // 7 samples: from 3 to 6, too short to tell
    assertEquals(0.85, RateStep.lateIngestedShare(samples.subList(0, 8)), 1e-9);
    assertTrue(Double.isNaN(RateStep.lateIngestedShare(samples.subList(0, 7))), "a half of 3 s is too short to tell");
    List<Sample> idle = new ArrayList<>();
    for (int k = 0; k < 10; k++) idle.add(sample(k, 5, 5));
    assertTrue(Double.isNaN(RateStep.lateIngestedShare(idle)), "nothing generated in the second half");
  }

  private static Sample sample(int second, long generated, long ingested) {
    return new Sample(second * 1000L, second, "step 1", generated, ingested, 0, 0, 0, Map.of());
  }
}
