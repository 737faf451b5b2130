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
  private final LongAdder messages = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final Map<Integer, Long> sequencesPerProducer = new ConcurrentHashMap<>();
  private volatile String firstError;

  /** @param messageBytes bytes of the broker message (an envelope holds several events) */
  void recordSent(int events, int messageBytes) {
    sent.add(events);
    messages.increment();
    bytes.add(messageBytes);
  }

  void recordAck(int events) {
    acked.add(events);
  }

  void recordError(Exception e, int events) {
    errors.add(events);
    if (firstError == null) firstError = e.toString();
  }

  void producerFinished(int producerId, long sequences) {
    sequencesPerProducer.put(producerId, sequences);
  }

  /** The counts of several finished phases together (a max-rate run's steps). */
  public static GeneratorStats combined(Iterable<GeneratorStats> phases) {
    GeneratorStats all = new GeneratorStats();
    for (GeneratorStats p : phases) {
      all.sent.add(p.sent());
      all.acked.add(p.acked());
      all.bytes.add(p.bytes());
      all.messages.add(p.messages());
      all.errors.add(p.errors());
      all.sequencesPerProducer.putAll(p.sequencesPerProducer);
      if (all.firstError == null) all.firstError = p.firstError;
    }
    return all;
  }

  public long sent() { return sent.sum(); }
  public long acked() { return acked.sum(); }
  /** Bytes of the message values sent (compressed envelopes count as sent). */
  public long bytes() { return bytes.sum(); }
  /** Broker messages sent: the events, or fewer when they are batched into envelopes. */
  public long messages() { return messages.sum(); }
  public long errors() { return errors.sum(); }
  public String firstError() { return firstError; }

  /** producer id -> events it sent, with sequences 0..n-1 (complete once the generator ended). */
  public Map<Integer, Long> sequencesPerProducer() {
    return Map.copyOf(sequencesPerProducer);
  }
}
