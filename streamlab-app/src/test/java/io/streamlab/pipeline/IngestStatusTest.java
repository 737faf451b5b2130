package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class IngestStatusTest {
  @Test
  void formatsAndParsesBack() {
    IngestStatus s = new IngestStatus(true, 12, 13_000, 11, 1, 250_000, 40_000);
    assertEquals(s, IngestStatus.parse(s.format()));
  }

  @Test
  void otherLinesAreNotStatus() {
    assertNull(IngestStatus.parse("INFO flink started"));
  }
}
