package io.streamlab.metrics;

import java.time.Instant;

/** Wall-clock microseconds, the unit of every timestamp streamlab writes or compares. */
public final class Clock {
  private Clock() {}

  public static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
