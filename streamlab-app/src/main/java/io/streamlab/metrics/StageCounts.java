package io.streamlab.metrics;

/**
 * What one pipeline stage did so far, summed over all its workers: elements through it, bytes
 * (where the stage knows its elements' size; 0 otherwise) and busy time, i.e. the wall time the
 * stage's code ran, added up over threads (Dataflow's "wall time" of a step).
 */
public record StageCounts(long elements, long bytes, long busyNanos) {
  public static final StageCounts ZERO = new StageCounts(0, 0, 0);

  public StageCounts minus(StageCounts earlier) {
    return new StageCounts(elements - earlier.elements, bytes - earlier.bytes, busyNanos - earlier.busyNanos);
  }

  /** Mean bytes per element, 0 when the stage does not know sizes. */
  public double meanElementBytes() {
    return elements == 0 ? 0 : (double) bytes / elements;
  }

  /** "elements/bytes/nanos", the form status lines carry. */
  public String format() {
    return elements + "/" + bytes + "/" + busyNanos;
  }

  public static StageCounts parse(String text) {
    String[] p = text.split("/");
    if (p.length != 3) throw new IllegalArgumentException("stage counts are elements/bytes/nanos, not " + text);
    return new StageCounts(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
  }
}
