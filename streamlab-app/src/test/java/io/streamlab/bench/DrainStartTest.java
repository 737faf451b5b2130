package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.streamlab.pipeline.IngestStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A drain's window starts at its first measured row: the polls around it give its CPU time and counters. */
class DrainStartTest {
  private static IngestStatus written(long rows) {
    return new IngestStatus(true, rows, rows * 100, rows, 0, 0, 0, 0, Map.of());
  }

  private static final IngestStatus A = written(1_000), B = written(5_000), C = written(9_000);
  private static final List<DrainStart.Poll> POLLS = List.of(
      new DrainStart.Poll(1_000_000, Duration.ofMillis(2_000), A),
      new DrainStart.Poll(1_100_000, Duration.ofMillis(2_100), B),
      new DrainStart.Poll(1_200_000, Duration.ofMillis(2_300), C));

  @Test
  void cpuIsInterpolatedBetweenThePollsAroundTheFirstRowAndCountersAreTheLastStatusBeforeIt() {
    DrainStart s = DrainStart.at(POLLS, 1_150_000);
    assertEquals(Duration.ofMillis(2_200), s.cpu(), "halfway between 2.1 s and 2.3 s");
    assertSame(B, s.status());
    assertEquals(Duration.ofMillis(2_100), DrainStart.at(POLLS, 1_100_000).cpu(), "a poll at the very moment");
  }

  @Test
  void aFirstRowOutsideThePollsTakesTheNearestPoll() {
    assertSame(A, DrainStart.at(POLLS, 900_000).status());
    assertEquals(Duration.ofMillis(2_000), DrainStart.at(POLLS, 900_000).cpu());
    assertSame(C, DrainStart.at(POLLS, 5_000_000).status());
    assertEquals(Duration.ofMillis(2_300), DrainStart.at(POLLS, 5_000_000).cpu());
    assertNull(DrainStart.at(List.of(), 1_000_000));
  }
}
