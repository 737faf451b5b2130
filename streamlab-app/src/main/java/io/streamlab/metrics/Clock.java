package io.streamlab.metrics;

import java.time.Instant;

/** Wall-clock microseconds, the unit of every timestamp streamlab writes or compares. */
public final class Clock {
  /** Wall clock and System.nanoTime() read together once, so a nanoTime can be turned into wall time. */
  private static final long BASE_NANOS = System.nanoTime();
  private static final long BASE_MICROS = nowMicros();

  private Clock() {}

  public static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  /**
   * The wall-clock microseconds of a {@code System.nanoTime()} reading a stage has taken anyway,
   * so it can age its elements against their send time without reading the clock again. Drifts
   * from {@link #nowMicros()} only as far as the two clocks drift over the JVM's life (NTP slews
   * a few ppm: well under a millisecond in an hour-long run).
   */
  public static long micros(long nanoTime) {
    return BASE_MICROS + (nanoTime - BASE_NANOS) / 1_000;
  }
}
