package io.streamlab.generator;

import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.metrics.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Random events from a schema into a topic, from several producer threads, each with its own
 * {@link MessageSink} (a KafkaProducer, or a Pub/Sub publisher), producer id and sequence. With a target rate each thread follows a fixed
 * schedule and stamps every event with its <em>intended</em> send time: when the thread falls
 * behind it sends at once but keeps the schedule's times, so lag shows up as latency instead of
 * silently lowering the rate.
 *
 * <p>With a compression other than NONE, each producer batches {@code maxRecordsPerBatch}
 * consecutive events into one compressed {@link Envelope}; every event keeps its own sequence and
 * intended send time inside it.
 */
public final class EventGenerator {
  /**
   * @param ratePerSec events per second over all producers; 0 = as fast as possible
   * @param maxEvents stop after this many events in total; 0 = no limit
   * @param duration stop after this long; null = no limit (one of maxEvents/duration is needed)
   */
  public record Config(String bootstrapServers, String topic, Schema schema, TransportFormat format,
      GeneratorSettings settings, long seed, int producers, int firstProducerId,
      double ratePerSec, long maxEvents, Duration duration, Map<String, Object> producerOverrides) {
    public Config {
      if (producers < 1) throw new IllegalArgumentException("--producers must be >= 1");
      // negative ids are the offset identities of messages without streamlab's headers
      if (firstProducerId < 0) throw new IllegalArgumentException("producer ids must be >= 0, got " + firstProducerId);
      if (ratePerSec < 0) throw new IllegalArgumentException("--ratePerSec must be >= 0");
      if (maxEvents <= 0 && duration == null) {
        throw new IllegalArgumentException("give a --count or a --duration");
      }
    }

    public Config withBootstrapServers(String servers) {
      return new Config(servers, topic, schema, format, settings, seed, producers, firstProducerId,
          ratePerSec, maxEvents, duration, producerOverrides);
    }

    /** The same generator for another phase: its own duration and producer ids. */
    public Config forPhase(Duration phaseDuration, int phaseFirstProducerId) {
      return forPhase(ratePerSec, 0, phaseDuration, phaseFirstProducerId);
    }

    /** The same events for another phase: its own rate, count or duration, and producer ids. */
    public Config forPhase(double phaseRate, long phaseMaxEvents, Duration phaseDuration, int phaseFirstProducerId) {
      return new Config(bootstrapServers, topic, schema, format, settings, seed, producers, phaseFirstProducerId,
          phaseRate, phaseMaxEvents, phaseDuration, producerOverrides);
    }
  }

  private final Config config;
  private final MessageSink.Factory sinks;
  private final GeneratorStats stats = new GeneratorStats();
  private volatile boolean stopRequested;
  /** When the schedule started (all producers connected, or {@link #release}d); set once. */
  private volatile long startNanos, startMicros;
  private final CountDownLatch released = new CountDownLatch(1);

  /** Into the config's Kafka topic. */
  public EventGenerator(Config config) {
    this(config, () -> new KafkaSink(config.bootstrapServers(), config.topic(), config.producerOverrides()));
  }

  /** Into the sinks {@code sinks} opens, one per producer (the config's Kafka fields are then unused). */
  public EventGenerator(Config config, MessageSink.Factory sinks) {
    this.config = config;
    this.sinks = sinks;
  }

  public GeneratorStats stats() {
    return stats;
  }

  /** Starts the schedule now (a gated {@link #run(boolean)}'s producers send from now on); once only. */
  public synchronized void release() {
    if (released.getCount() == 0) return;
    startNanos = System.nanoTime();
    startMicros = Clock.nowMicros();
    released.countDown();
  }

  /** Whether {@link #release} has started the schedule. */
  public boolean released() {
    return released.getCount() == 0;
  }

  /** Asks the producers to stop after their current event; {@link #run} then returns. */
  public void stop() {
    stopRequested = true;
  }

  /** Generates until the count or duration is reached; returns once every send is acknowledged. */
  public GeneratorStats run() throws InterruptedException {
    return run(false);
  }

  /**
   * Like {@link #run()}; with {@code gated}, the producers connect and then wait for {@link
   * #release}, so that this generator can take over from another without a gap.
   */
  public GeneratorStats run(boolean gated) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    // The schedule starts once every producer is connected: creating a KafkaProducer can take
    // seconds on a loaded machine, which would otherwise eat a short phase's whole schedule.
    CyclicBarrier ready = new CyclicBarrier(config.producers(), () -> {
      if (!gated) release();
    });
    for (int i = 0; i < config.producers(); i++) {
      int producerId = config.firstProducerId() + i;
      long quota = config.maxEvents() <= 0 ? Long.MAX_VALUE
          : config.maxEvents() / config.producers() + (i < config.maxEvents() % config.producers() ? 1 : 0);
      Thread t = new Thread(() -> produce(producerId, quota, ready),
          "generator-" + producerId);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) t.join();
    return stats;
  }

  private void produce(int producerId, long quota, CyclicBarrier ready) {
    RandomRecordFactory factory =
        new RandomRecordFactory(config.schema(), config.settings(), config.seed() * 1_000_003L + producerId);
    PayloadCodec codec = config.format().codec(config.schema());
    long seq = 0;
    Envelope.Builder batch = config.settings().batched() ? new Envelope.Builder(config.settings().compression()) : null;
    MessageSink connected;
    try {
      connected = sinks.open();
    } catch (RuntimeException e) {
      ready.reset(); // release the other producers instead of leaving them at the barrier
      stats.recordError(e, 0);
      stats.producerFinished(producerId, 0);
      throw e;
    }
    try (MessageSink producer = connected) {
      awaitStart(ready);
      if (!awaitRelease()) return;
      long startNanos = this.startNanos;
      SendSchedule schedule = new SendSchedule(config.ratePerSec() / config.producers(), startNanos, startMicros);
      long endNanos = config.duration() == null ? Long.MAX_VALUE : startNanos + config.duration().toNanos();
      for (; seq < quota && !stopRequested; seq++) {
        long dueNanos = schedule.dueNanos(seq);
        if (dueNanos >= endNanos || System.nanoTime() >= endNanos) break;
        schedule.awaitDue(dueNanos);
        long intendedMicros = schedule.intendedMicros(dueNanos);
        byte[] payload = codec.encode(factory.next());
        EventHeaders.Stamp stamp = new EventHeaders.Stamp(producerId, seq, intendedMicros);
        if (batch == null) {
          producer.send(stamp, payload, sent(1, payload.length));
        } else {
          batch.add(stamp, payload);
          if (batch.size() >= config.settings().maxRecordsPerBatch()) sendBatch(producer, batch);
        }
      }
      if (batch != null && batch.size() > 0) sendBatch(producer, batch);
      producer.flush();
    } finally {
      stats.producerFinished(producerId, seq);
    }
  }

  /** Waits for {@link #release} (at once unless gated); false if stopped before it. */
  private boolean awaitRelease() {
    try {
      while (!released.await(100, TimeUnit.MILLISECONDS)) {
        if (stopRequested) return false; // seen within 0.1 s
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("generator interrupted before its release", e);
    }
  }

  private static void awaitStart(CyclicBarrier ready) {
    try {
      ready.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("generator interrupted before it started", e);
    } catch (BrokenBarrierException e) {
      throw new IllegalStateException("another producer thread failed to start", e);
    }
  }

  private void sendBatch(MessageSink producer, Envelope.Builder batch) {
    int events = batch.size();
    RecordHeaders headers = new RecordHeaders();
    byte[] value = batch.finish(headers);
    producer.send(value, headers, sent(events, value.length));
  }

  /** Counts a message of {@code events} events as sent; the callback counts its acknowledgement or error. */
  private Consumer<Exception> sent(int events, int bytes) {
    stats.recordSent(events, bytes);
    return error -> {
      if (error == null) stats.recordAck(events);
      else stats.recordError(error, events);
    };
  }

}
