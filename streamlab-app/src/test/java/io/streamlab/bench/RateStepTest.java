package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateStepTest {
  @Test
  void sustainedNeedsTheRateTheBacklogAndTheLatency() {
    assertTrue(RateStep.sustained(10_000, 9_900, 5_000, 800, 1_000));
    assertTrue(RateStep.sustained(10_000, 9_900, 19_000, 1_900, 2_000), "2 s bound: 2 s of events in flight");
    assertFalse(RateStep.sustained(10_000, 9_000, 0, 100, 1_000), "generator fell short");
    assertFalse(RateStep.sustained(10_000, 10_000, 10_001, 100, 1_000), "backlog > the bound's events");
    assertFalse(RateStep.sustained(10_000, 10_000, 0, 1_001, 1_000), "p99 over the limit");
  }
}
