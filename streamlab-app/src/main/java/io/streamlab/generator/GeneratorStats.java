package io.streamlab.generator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live and final counts of a generator: what was sent, what the broker acknowledged, and per
 * producer the number of sequence numbers handed out, which is what verification expects to find.
 */
public final class GeneratorStats {
  private final LongAdder sent = new LongAdder();
  private final LongAdder acked = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final Map<Integer, Long> sequencesPerProducer = new ConcurrentHashMap<>();
  private volatile String firstError;

  void recordSent(int payloadBytes) {
    sent.increment();
    bytes.add(payloadBytes);
  }

  void recordAck() {
    acked.increment();
  }

  void recordError(Exception e) {
    errors.increment();
    if (firstError == null) firstError = e.toString();
  }

  void producerFinished(int producerId, long sequences) {
    sequencesPerProducer.put(producerId, sequences);
  }

  public long sent() { return sent.sum(); }
  public long acked() { return acked.sum(); }
  public long bytes() { return bytes.sum(); }
  public long errors() { return errors.sum(); }
  public String firstError() { return firstError; }

  /** producer id -> events it sent, with sequences 0..n-1 (complete once the generator ended). */
  public Map<Integer, Long> sequencesPerProducer() {
    return Map.copyOf(sequencesPerProducer);
  }
}
