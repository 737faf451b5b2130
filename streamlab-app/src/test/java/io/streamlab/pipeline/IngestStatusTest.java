package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.streamlab.metrics.StageCounts;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestStatusTest {
  @Test
  void formatsAndParsesBack() {
    IngestStatus s = new IngestStatus(true, 12, 13_000, 11, 1, 250_000, 40_000, 64 << 20,
        Map.of(Stage.READ, new StageCounts(12, 13_000, 0), Stage.WRITE, new StageCounts(11, 0, 7_000_000, 11, 2_200_000)));
    IngestStatus back = IngestStatus.parse(s.format());
    assertEquals(s, back);
    assertEquals(7_000_000, back.stage(Stage.WRITE).busyNanos());
    assertEquals(200.0, back.stage(Stage.WRITE).meanMillisSinceSend(), 1e-9, "the write's output ages travel too");
    assertEquals(StageCounts.ZERO, back.stage(Stage.UDF));
    assertEquals(40_000, back.bytesShuffled());
  }

  @Test
  void otherLinesAreNotStatus() {
    assertNull(IngestStatus.parse("INFO flink started"));
  }
}
