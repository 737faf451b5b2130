package io.streamlab.loadtest;

import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which sequence numbers of which producers were seen, one bit each. The publishing side keeps
 * one for the acknowledged messages and the subscribing side one for the received ones: missing
 * = acknowledged but never received, duplicates = received more than once. Without a publishing
 * side (a subscribe-only run) missing falls back to the gaps in each producer's sequence.
 */
public final class SequenceTracker {
  private final Map<Integer, BitSet> seen = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();
  private final LongAdder repeats = new LongAdder();

  /** Records one message; true the first time this producer id and sequence is seen. */
  public boolean record(int producerId, long sequence) {
    if (sequence < 0 || sequence > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("sequence " + sequence + " of producer " + producerId + " out of range");
    }
    total.increment();
    BitSet bits = seen.computeIfAbsent(producerId, id -> new BitSet());
    boolean first;
    synchronized (bits) {
      first = !bits.get((int) sequence);
      if (first) bits.set((int) sequence);
    }
    if (!first) repeats.increment();
    return first;
  }

  /** Messages recorded, repeats included. */
  public long total() {
    return total.sum();
  }

  public long distinct() {
    return total.sum() - repeats.sum();
  }

  /** Messages recorded more than once (each repeat counted). */
  public long duplicates() {
    return repeats.sum();
  }

  /** Messages in {@code expected} that this tracker never saw. */
  public long missingFrom(SequenceTracker expected) {
    long missing = 0;
    for (Map.Entry<Integer, BitSet> e : expected.seen.entrySet()) {
      BitSet want;
      synchronized (e.getValue()) {
        want = (BitSet) e.getValue().clone();
      }
      BitSet got = seen.get(e.getKey());
      if (got != null) {
        synchronized (got) {
          want.andNot(got);
        }
      }
      missing += want.cardinality();
    }
    return missing;
  }

  /** Sequences absent between 0 and the highest seen, over all producers. */
  public long gaps() {
    long gaps = 0;
    for (BitSet bits : seen.values()) {
      synchronized (bits) {
        gaps += bits.length() - bits.cardinality();
      }
    }
    return gaps;
  }
}
