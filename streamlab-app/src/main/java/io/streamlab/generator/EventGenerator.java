package io.streamlab.generator;

import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.metrics.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import org.apache.avro.Schema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Random events from a schema into a topic, from several producer threads, each with its own
 * KafkaProducer, producer id and sequence. With a target rate each thread follows a fixed
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
  private final GeneratorStats stats = new GeneratorStats();
  private volatile boolean stopRequested;
  /** When the schedule started (all producers connected); set by the start barrier. */
  private volatile long startNanos, startMicros;

  public EventGenerator(Config config) {
    this.config = config;
  }

  public GeneratorStats stats() {
    return stats;
  }

  /** Asks the producers to stop after their current event; {@link #run} then returns. */
  public void stop() {
    stopRequested = true;
  }

  /** Generates until the count or duration is reached; returns once every send is acknowledged. */
  public GeneratorStats run() throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    // The schedule starts once every producer is connected: creating a KafkaProducer can take
    // seconds on a loaded machine, which would otherwise eat a short phase's whole schedule.
    CyclicBarrier ready = new CyclicBarrier(config.producers(), () -> {
      startNanos = System.nanoTime();
      startMicros = Clock.nowMicros();
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
    KafkaProducer<byte[], byte[]> connected;
    try {
      connected = new KafkaProducer<>(producerConfig());
    } catch (RuntimeException e) {
      ready.reset(); // release the other producers instead of leaving them at the barrier
      stats.recordError(e, 0);
      stats.producerFinished(producerId, 0);
      throw e;
    }
    try (KafkaProducer<byte[], byte[]> producer = connected) {
      awaitStart(ready);
      long startNanos = this.startNanos;
      SendSchedule schedule = new SendSchedule(config.ratePerSec() / config.producers(), startNanos, startMicros);
      long endNanos = config.duration() == null ? Long.MAX_VALUE : startNanos + config.duration().toNanos();
      for (; seq < quota && !stopRequested; seq++) {
        long dueNanos = schedule.dueNanos(seq);
        if (dueNanos >= endNanos || System.nanoTime() >= endNanos) break;
        schedule.awaitDue(dueNanos);
        long intendedMicros = schedule.intendedMicros(dueNanos);
        byte[] payload = codec.encode(factory.next());
        if (batch == null) {
          ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(config.topic(), null, payload);
          EventHeaders.write(record.headers(), producerId, seq, intendedMicros);
          send(producer, record, 1);
        } else {
          batch.add(new EventHeaders.Stamp(producerId, seq, intendedMicros), payload);
          if (batch.size() >= config.settings().maxRecordsPerBatch()) sendBatch(producer, batch);
        }
      }
      if (batch != null && batch.size() > 0) sendBatch(producer, batch);
      producer.flush();
    } finally {
      stats.producerFinished(producerId, seq);
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

  private void sendBatch(KafkaProducer<byte[], byte[]> producer, Envelope.Builder batch) {
    int events = batch.size();
    org.apache.kafka.common.header.internals.RecordHeaders headers = new org.apache.kafka.common.header.internals.RecordHeaders();
    byte[] value = batch.finish(headers);
    send(producer, new ProducerRecord<byte[], byte[]>(config.topic(), null, (byte[]) null, value, headers), events);
  }

  private void send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record, int events) {
    stats.recordSent(events, record.value().length);
    producer.send(record, (meta, error) -> {
      if (error == null) stats.recordAck(events);
      else stats.recordError(error, events);
    });
  }

  private Map<String, Object> producerConfig() {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    // Idempotent, fully acknowledged sends: the generator itself must neither lose nor duplicate,
    // or the pipeline's lost/duplicated counts would mean nothing.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L << 20);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
    p.putAll(config.producerOverrides());
    return p;
  }
}
