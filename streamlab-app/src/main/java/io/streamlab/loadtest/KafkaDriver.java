package io.streamlab.loadtest;

import io.streamlab.broker.Topics;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.EventHeaders.Stamp;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka through kafka-clients: one KafkaProducer per publisher, one KafkaConsumer (and polling
 * thread) per subscriber, all subscribers in one consumer group named by the subscription, so
 * they share the partitions. The stamp travels in the streamlab message headers
 * ({@link EventHeaders}).
 */
public final class KafkaDriver implements BrokerDriver {
  /** Room for the record batch and header overhead on top of the largest payload. */
  private static final int REQUEST_OVERHEAD_BYTES = 64 * 1024;
  private static final int GROUP_JOIN_TIMEOUT_SECONDS = 60;

  private final String bootstrapServers;
  private final ClientSettings client;
  private volatile int largestMessageBytes = 1 << 20;

  public KafkaDriver(String bootstrapServers, ClientSettings client) {
    this.bootstrapServers = bootstrapServers;
    this.client = client;
  }

  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public void createTopic(String topic, String subscription, int partitions, int largestMessageBytes) throws Exception {
    this.largestMessageBytes = Math.max(this.largestMessageBytes, largestMessageBytes);
    Topics.create(bootstrapServers, topic, partitions,
        Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(maxRequestBytes())));
  }

  private int maxRequestBytes() {
    return Math.max(1 << 20, largestMessageBytes + REQUEST_OVERHEAD_BYTES);
  }

  /** The producer's configuration: client defaults except what {@link ClientSettings} sets. */
  Map<String, Object> producerConfig() {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    // acks=all and idempotence are kafka-clients 3.x defaults; spelled out because the load
    // test promises no duplicates from retries.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestBytes());
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(32L << 20, 4L * maxRequestBytes()));
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
    if (client.batchMaxBytes() > 0) p.put(ProducerConfig.BATCH_SIZE_CONFIG, (int) Math.min(Integer.MAX_VALUE, client.batchMaxBytes()));
    if (client.batchMaxDelay() != null) p.put(ProducerConfig.LINGER_MS_CONFIG, (int) client.batchMaxDelay().toMillis());
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, client.compression());
    return p;
  }

  /** The consumer's configuration: client defaults except what {@link ClientSettings} sets. */
  Map<String, Object> consumerConfig(String subscription) {
    Map<String, Object> c = new HashMap<>();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, subscription);
    // A new subscription starts at the beginning: a backlog built before it exists is read too.
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    if (client.maxOutstandingMessages() > 0) {
      c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, (int) Math.min(Integer.MAX_VALUE, client.maxOutstandingMessages()));
    }
    if (client.maxOutstandingBytes() > 0) {
      c.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, (int) Math.min(Integer.MAX_VALUE, client.maxOutstandingBytes()));
    }
    return c;
  }

  @Override
  public Publisher publisher(String topic) {
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig());
    return new Publisher() {
      @Override
      public CompletableFuture<Void> send(byte[] payload, Stamp stamp) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, payload);
        EventHeaders.write(record.headers(), stamp);
        CompletableFuture<Void> acked = new CompletableFuture<>();
        producer.send(record, (meta, error) -> {
          if (error == null) acked.complete(null);
          else acked.completeExceptionally(error);
        });
        return acked;
      }

      @Override
      public void flush() {
        producer.flush();
      }

      @Override
      public void close() {
        producer.close(Duration.ofSeconds(30));
      }
    };
  }

  @Override
  public Subscriber subscriber(String topic, String subscription, MessageHandler handler) throws InterruptedException {
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(subscription));
    CountDownLatch joined = new CountDownLatch(1);
    consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        joined.countDown();
      }
    });
    AtomicLong lag = new AtomicLong(Long.MAX_VALUE); // behind until a fetch says otherwise
    Thread poller = new Thread(() -> poll(consumer, handler, lag), "kafka-subscriber-" + subscription);
    poller.setDaemon(true);
    poller.start();
    // Joining the group takes seconds; a subscriber that is not yet polling would show up as
    // end-to-end latency of the first messages. Start measuring once it has its partitions
    // (possibly none, when there are more subscribers than partitions).
    if (!joined.await(GROUP_JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException("subscriber of '" + topic + "' was not assigned partitions within "
          + GROUP_JOIN_TIMEOUT_SECONDS + " s");
    }
    return new Subscriber() {
      @Override
      public long lag() {
        return lag.get();
      }

      @Override
      public void close() {
        consumer.wakeup();
        try {
          poller.join(30_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  /** Polls until woken up; after each poll's records are handled, publishes the lag behind the fetched end offsets. */
  private void poll(KafkaConsumer<byte[], byte[]> consumer, MessageHandler handler, AtomicLong lag) {
    try (consumer) {
      while (true) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          Stamp stamp;
          try {
            stamp = EventHeaders.read(r.headers());
          } catch (IllegalArgumentException notOurs) {
            stamp = null;
          }
          handler.onMessage(r.value() == null ? 0 : r.value().length, stamp);
        }
        lag.set(currentLag(consumer));
      }
    } catch (WakeupException closing) {
      // close() asked the poller to stop
    }
  }

  /**
   * The sum of the assigned partitions' lags as of their last fetch; {@link Long#MAX_VALUE} (behind)
   * while the consumer has no partitions (joining, rebalancing) or one of them has not been fetched.
   */
  private static long currentLag(KafkaConsumer<byte[], byte[]> consumer) {
    if (consumer.assignment().isEmpty()) return Long.MAX_VALUE;
    long sum = 0;
    for (TopicPartition tp : consumer.assignment()) {
      OptionalLong lag = consumer.currentLag(tp);
      if (lag.isEmpty()) return Long.MAX_VALUE;
      sum += lag.getAsLong();
    }
    return sum;
  }

  @Override
  public void close() {}
}
