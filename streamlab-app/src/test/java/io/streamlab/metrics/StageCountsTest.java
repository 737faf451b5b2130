package io.streamlab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class StageCountsTest {
  @Test
  void agesSubtractOverAWindowAndGiveTheTimeSinceTheRead() {
    StageCounts readBefore = new StageCounts(10, 0, 0, 10, 10 * 5_000);
    StageCounts readAfter = new StageCounts(110, 0, 0, 110, 10 * 5_000 + 100 * 20_000);
    StageCounts writeBefore = new StageCounts(10, 0, 0, 10, 10 * 9_000);
    StageCounts writeAfter = new StageCounts(110, 0, 0, 110, 10 * 9_000 + 100 * 170_000);
    StageCounts read = readAfter.minus(readBefore), write = writeAfter.minus(writeBefore);
    assertEquals(20.0, read.meanMillisSinceSend(), 1e-9, "the window's read ages only");
    assertEquals(170.0, write.meanMillisSinceSend(), 1e-9);
    assertEquals(150.0, write.meanMillisSince(read), 1e-9);
    assertNull(new StageCounts(5, 0, 0).meanMillisSince(read), "a stage without ages has no latency");
  }

  @Test
  void formatsAndParsesBackAndReadsTheOlderForm() {
    StageCounts c = new StageCounts(3, 4, 5, 6, 7);
    assertEquals(c, StageCounts.parse(c.format()));
    assertEquals(new StageCounts(3, 4, 5), StageCounts.parse("3/4/5"));
    assertEquals(new StageCounts(4, 6, 8, 10, 12), c.plus(new StageCounts(1, 2, 3, 4, 5)));
  }
}
