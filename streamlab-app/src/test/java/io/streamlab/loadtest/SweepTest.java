package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepTest {
  private static final LoadtestSettings BASE = new LoadtestSettings(Role.BOTH, "t", "s", 1, MessageSizes.parse("1KB"),
      1, 1, 2, 1, 0, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1),
      Duration.ofSeconds(10), ClientSettings.DEFAULTS, 0, 1);

  @Test
  void messageSizeSweepRunsThePresetsEachOnItsOwnTopic() {
    List<Sweep.Point> points = Sweep.parse("message-size").points(BASE, 2);
    assertEquals(List.of(1_000, 10_000, 100_000, 1_000_000, 9_000_000),
        points.stream().map(p -> p.settings().messageSizes().largest()).toList());
    assertEquals(5, points.stream().map(p -> p.settings().topic()).distinct().count());
  }

  @Test
  void coresSweepScalesThePublishingThreads() {
    List<Sweep.Point> points = Sweep.CORES.points(BASE.withThreadsPerCore(2), 3);
    assertEquals(List.of(2, 4, 6), points.stream().map(p -> p.settings().publishingThreads()).toList());
  }

  @Test
  void unknownSweepIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sweep.parse("sizes"));
    assertEquals("--sweep must be one of none, cores, threads, message-size; was 'sizes'", e.getMessage());
  }
}
