package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.metrics.StageCounts;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestStatusTest {
  @Test
  void formatsAndParsesBack() {
    IngestStatus s = new IngestStatus(true, 12, 13_000, 11, 1, 250_000, 40_000, 64 << 20,
        Map.of(Stage.READ, new StageCounts(12, 13_000, 0), Stage.WRITE, new StageCounts(11, 0, 7_000_000, 11, 2_200_000)),
        Map.of("appends", 3L), 5_000_000_000L);
    IngestStatus back = IngestStatus.parse(s.format());
    assertEquals(s, back);
    assertEquals(5_000_000_000L, back.allocatedBytes());
    assertEquals(7_000_000, back.stage(Stage.WRITE).busyNanos());
    assertEquals(200.0, back.stage(Stage.WRITE).meanMillisSinceSend(), 1e-9, "the write's output ages travel too");
    assertEquals(StageCounts.ZERO, back.stage(Stage.UDF));
    assertEquals(40_000, back.bytesShuffled());
  }

  @Test
  void aKilledProcessAndItsRestartCombineTheirWriteFigures() {
    IngestStatus killed = new IngestStatus(true, 0, 0, 0, 0, 0, 0, 0, Map.of(),
        Map.of("appends", 10L, "inFlightMax", 7L, "activeKeys", 40L, "keysUsed", 50L, "activeAutoShards", 16L));
    IngestStatus restart = new IngestStatus(true, 0, 0, 0, 0, 0, 0, 0, Map.of(),
        Map.of("appends", 5L, "inFlightMax", 3L, "activeKeys", 20L, "keysUsed", 30L, "activeAutoShards", 8L));
    // counters add up, maxima and the keys used (a lower bound: both used the same keys) take the
    // larger, gauges are the later process's
    assertEquals(Map.of("appends", 15L, "inFlightMax", 7L, "activeKeys", 20L, "keysUsed", 50L, "activeAutoShards", 8L),
        killed.plus(restart).write());
  }

  @Test
  void theCurrentStatusCountsTheHeapBytesThreadsAllocate() throws Exception {
    long before = IngestStatus.current(0).allocatedBytes();
    // on another thread, which then ends: an ended thread's bytes still count
    Thread t = new Thread(() -> {
      for (int i = 0; i < 64; i++) sink = new byte[1 << 20];
    });
    t.start();
    t.join();
    long after = IngestStatus.current(0).allocatedBytes();
    assertTrue(before > 0, "the JVM counts allocated bytes");
    assertTrue(after - before >= 64L << 20, "64 MB allocated, counted " + (after - before));
  }

  private static volatile byte[] sink;

  @Test
  void otherLinesAreNotStatus() {
    assertNull(IngestStatus.parse("INFO flink started"));
  }
}
