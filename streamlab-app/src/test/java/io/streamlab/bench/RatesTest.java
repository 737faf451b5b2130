package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RatesTest {
  @Test
  void megabytesPerCoreSecond() {
    assertEquals(6.4, Rates.perCore(64_000_000, 10), 1e-9);
    assertEquals(0, Rates.perCore(64_000_000, 0));
  }

  @Test
  void perSecondOverASpan() {
    assertEquals(2_500, Rates.perSecond(10_000, 4), 1e-9);
    assertEquals(0, Rates.perSecond(10_000, 0));
  }

  @Test
  void percentilesOfKnownLatencies() {
    Histogram h = new Histogram(3_600_000_000L, 3);
    for (int ms = 1; ms <= 1000; ms++) h.recordValue(ms * 1000L); // 1..1000 ms, once each
    assertEquals(500, Rates.percentileMillis(h, 50), 0.5);
    assertEquals(990, Rates.percentileMillis(h, 99), 1);
    assertEquals(1000, Rates.percentileMillis(h, 100), 1);
    assertEquals(0, Rates.percentileMillis(new Histogram(3), 99));
  }
}
