package io.streamlab.metrics;

/**
 * What one pipeline stage did so far, summed over all its workers: elements through it, bytes
 * (where the stage knows its elements' size; 0 otherwise), busy time, i.e. the wall time the
 * stage's code ran, added up over threads (Dataflow's "wall time" of a step), and the age of its
 * output: for {@code latencyCount} elements, the microseconds from each one's intended send time
 * to the moment the stage output it, summed.
 *
 * <p>Ages are summed rather than kept in histograms so that recording stays two adds per element
 * on the hot path; the mean is what the study adds up across stages, and the difference of two
 * stages' mean ages is the mean time between them ({@link #meanMillisSince}).
 */
public record StageCounts(long elements, long bytes, long busyNanos, long latencyCount, long latencyMicros) {
  public static final StageCounts ZERO = new StageCounts(0, 0, 0, 0, 0);

  /** A stage that does not record the age of its output. */
  public StageCounts(long elements, long bytes, long busyNanos) {
    this(elements, bytes, busyNanos, 0, 0);
  }

  public StageCounts minus(StageCounts earlier) {
    return new StageCounts(elements - earlier.elements, bytes - earlier.bytes, busyNanos - earlier.busyNanos,
        latencyCount - earlier.latencyCount, latencyMicros - earlier.latencyMicros);
  }

  public StageCounts plus(StageCounts o) {
    return new StageCounts(elements + o.elements, bytes + o.bytes, busyNanos + o.busyNanos,
        latencyCount + o.latencyCount, latencyMicros + o.latencyMicros);
  }

  /** Mean bytes per element, 0 when the stage does not know sizes. */
  public double meanElementBytes() {
    return elements == 0 ? 0 : (double) bytes / elements;
  }

  /** Mean milliseconds from an element's intended send time to this stage's output; null when not recorded. */
  public Double meanMillisSinceSend() {
    return latencyCount == 0 ? null : latencyMicros / 1e3 / latencyCount;
  }

  /**
   * Mean milliseconds from {@code earlier}'s output (the read) to this stage's output: the
   * difference of the two mean ages, which is the mean of the per-element differences when both
   * stages saw the same elements. Null when either does not record ages.
   */
  public Double meanMillisSince(StageCounts earlier) {
    Double mine = meanMillisSinceSend(), theirs = earlier.meanMillisSinceSend();
    return mine == null || theirs == null ? null : Math.max(0, mine - theirs);
  }

  /** "elements/bytes/nanos/ages/ageMicros", the form status lines carry. */
  public String format() {
    return elements + "/" + bytes + "/" + busyNanos + "/" + latencyCount + "/" + latencyMicros;
  }

  /** Also reads the older "elements/bytes/nanos" (no ages). */
  public static StageCounts parse(String text) {
    String[] p = text.split("/");
    if (p.length != 3 && p.length != 5) {
      throw new IllegalArgumentException("stage counts are elements/bytes/nanos[/ages/ageMicros], not " + text);
    }
    return new StageCounts(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]),
        p.length == 5 ? Long.parseLong(p[3]) : 0, p.length == 5 ? Long.parseLong(p[4]) : 0);
  }
}
