package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
  @Test
  void countsMissingAndDuplicatesPerProducer() {
    SequenceTracker acked = new SequenceTracker();
    SequenceTracker received = new SequenceTracker();
    for (int seq = 0; seq < 100; seq++) {
      acked.record(1, seq);
      acked.record(2, seq);
    }
    for (int seq = 0; seq < 100; seq++) {
      if (seq != 42) received.record(1, seq); // one lost
      received.record(2, seq);
    }
    assertTrue(received.record(3, 0), "first sight of a producer unknown to the publisher");
    assertFalse(received.record(2, 7), "a redelivery");
    received.record(2, 7);

    assertEquals(1, received.missingFrom(acked));
    assertEquals(2, received.duplicates());
    assertEquals(99 + 100 + 1, received.distinct());
    assertEquals(202, received.total());
  }

  @Test
  void gapsStandInForMissingWithoutAPublishingSide() {
    SequenceTracker received = new SequenceTracker();
    for (int seq : new int[] {0, 1, 2, 5, 6}) received.record(9, seq);
    received.record(10, 0);
    assertEquals(2, received.gaps(), "3 and 4 of producer 9");
  }
}
