package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.time.Duration;
import java.util.List;

/**
 * Where a drain's measurement window starts: at its first measured row (the table's earliest write
 * time of the measured producers), not when the run sees the warm-up's end. The run learns the
 * ingestion's counters from status lines, once a second, and then lets them settle; a backlog that
 * drains within that time was measured as 0 events/s, a longer one without its first second. So a
 * drain's rows and span come from the table, and its CPU time and counters from the run's polls of
 * the ingestion (every 100 ms) around the first measured row: CPU time interpolated between the two
 * polls, the stage and shuffle counters the last status before it (status lines come once a second:
 * they may hold up to a second of the warm-up's tail).
 *
 * @param status the ingestion's counters the window is measured from
 * @param cpu the ingestion's CPU time at the first measured row
 */
record DrainStart(IngestStatus status, Duration cpu) {
  /** One poll of the ingestion while the run waits for the backlog. */
  record Poll(long epochMicros, Duration cpu, IngestStatus status) {}

  /**
   * @param polls in the order taken
   * @return null when there was no poll
   */
  static DrainStart at(List<Poll> polls, long firstWriteMicros) {
    Poll before = null, after = null;
    for (Poll p : polls) {
      if (p.epochMicros() <= firstWriteMicros) {
        before = p;
      } else {
        after = p;
        break;
      }
    }
    // the run polls from the moment ingestion is ready, so a measured row before the first poll is
    // (nearly) impossible; then the first poll is the closest start there is
    if (before == null) return after == null ? null : new DrainStart(after.status(), after.cpu());
    if (after == null) return new DrainStart(before.status(), before.cpu());
    double share = (double) (firstWriteMicros - before.epochMicros()) / (after.epochMicros() - before.epochMicros());
    long cpuNanos = before.cpu().toNanos() + Math.round(share * after.cpu().minus(before.cpu()).toNanos());
    return new DrainStart(before.status(), Duration.ofNanos(cpuNanos));
  }
}
