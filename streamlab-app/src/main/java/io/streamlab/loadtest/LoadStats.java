package io.streamlab.loadtest;

import io.streamlab.formats.EventHeaders.Stamp;
import io.streamlab.metrics.Clock;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The live measurements of one load-test run, fed by publishers and subscribers from many
 * threads: counters, which sequences were acknowledged and received, and three latency
 * recorders (microseconds, HdrHistogram):
 * <ul>
 *   <li>publish latency: acknowledgement minus <em>intended</em> send time;
 *   <li>publish delay: the moment the client accepted the message minus its intended send time
 *       (how far the publisher fell behind its schedule: client back-pressure, a stall);
 *   <li>end-to-end: receive minus intended send time.
 * </ul>
 * Measuring from the intended send time corrects for coordinated omission: a stall delays every
 * message scheduled during it, and each of them shows the delay.
 */
public final class LoadStats {
  private static final long HIGHEST_MICROS = 3_600_000_000L;

  private final LongAdder handedToClient = new LongAdder();
  private final LongAdder acked = new LongAdder();
  private final LongAdder ackedBytes = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder received = new LongAdder();
  private final LongAdder receivedBytes = new LongAdder();
  private final LongAdder unstamped = new LongAdder();
  private final SequenceTracker acknowledged = new SequenceTracker();
  private final SequenceTracker receivedSequences = new SequenceTracker();
  private final Recorder publishLatency = new Recorder(HIGHEST_MICROS, 3);
  private final Recorder publishDelay = new Recorder(HIGHEST_MICROS, 3);
  private final Recorder endToEnd = new Recorder(HIGHEST_MICROS, 3);
  private volatile String firstError;

  void recordHandedToClient(long intendedMicros) {
    handedToClient.increment();
    publishDelay.recordValue(clamp(Clock.nowMicros() - intendedMicros));
  }

  void recordAck(Stamp stamp, int payloadBytes) {
    publishLatency.recordValue(clamp(Clock.nowMicros() - stamp.sendTimeMicros()));
    acked.increment();
    ackedBytes.add(payloadBytes);
    acknowledged.record(stamp.producerId(), stamp.sequence());
  }

  void recordError(Throwable error) {
    errors.increment();
    if (firstError == null) firstError = String.valueOf(error);
  }

  /**
   * The subscriber callback: counts the message and its end-to-end latency. A message without a
   * stamp (someone else's, on a shared topic) is counted apart, never silently dropped.
   */
  void recordReceived(int payloadBytes, Stamp stamp) {
    if (stamp == null) {
      unstamped.increment();
      return;
    }
    endToEnd.recordValue(clamp(Clock.nowMicros() - stamp.sendTimeMicros()));
    received.increment();
    receivedBytes.add(payloadBytes);
    receivedSequences.record(stamp.producerId(), stamp.sequence());
  }

  private static long clamp(long micros) {
    return Math.min(HIGHEST_MICROS, Math.max(0, micros));
  }

  public long handedToClient() { return handedToClient.sum(); }
  public long acked() { return acked.sum(); }
  public long ackedBytes() { return ackedBytes.sum(); }
  public long errors() { return errors.sum(); }
  public String firstError() { return firstError; }
  public long received() { return received.sum(); }
  public long receivedBytes() { return receivedBytes.sum(); }
  public long receivedDistinct() { return receivedSequences.distinct(); }
  public long duplicates() { return receivedSequences.duplicates(); }
  public long unstamped() { return unstamped.sum(); }

  /** Acknowledged but never received, or, when nothing was published here, sequence gaps. */
  public long missing(boolean publishedHere) {
    return publishedHere ? receivedSequences.missingFrom(acknowledged) : receivedSequences.gaps();
  }

  /** Interval histograms since the previous call, one per latency kind; resets the recorders. */
  Latencies takeIntervalHistograms() {
    return new Latencies(publishLatency.getIntervalHistogram(), publishDelay.getIntervalHistogram(),
        endToEnd.getIntervalHistogram());
  }

  /** One interval's (or a window's) latency histograms, in microseconds. */
  record Latencies(Histogram publish, Histogram publishDelay, Histogram endToEnd) {
    static Latencies empty() {
      return new Latencies(new Histogram(HIGHEST_MICROS, 3), new Histogram(HIGHEST_MICROS, 3),
          new Histogram(HIGHEST_MICROS, 3));
    }

    void add(Latencies other) {
      publish.add(other.publish);
      publishDelay.add(other.publishDelay);
      endToEnd.add(other.endToEnd);
    }
  }
}
