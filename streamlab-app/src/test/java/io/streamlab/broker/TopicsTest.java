package io.streamlab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.streamlab.testing.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A topic is written to the moment {@link Topics#create} returns, by an idempotent producer with
 * several requests in flight per partition: every record lands, in the order sent. Without the
 * wait for the partitions' leaders, a first request that reached the broker before it led the
 * partition was retried behind a later one that was accepted, failed with
 * OUT_OF_ORDER_SEQUENCE_NUMBER until delivery.timeout.ms, and its records were dropped (KAFKA-15591):
 * the partition then began with a later record.
 */
class TopicsTest {
  private static final int TOPICS = 12;
  private static final int PARTITIONS = 4;
  private static final int PER_PARTITION = 600;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  /**
   * The broker asked for a new topic's leaders may not know the topic yet; the admin client gives
   * up on an unknown topic at once, and once that failed runs at random (a scenario run, a broker
   * restarted on new ports). Here the topic does not exist for the wait's first second: the wait
   * must outlast that and return once the topic is there.
   */
  @Test
  void theWaitForLeadersOutlastsATopicNotKnownYet() throws Exception {
    String topic = "known-later";
    try (Admin admin = Topics.admin(kafka.bootstrapServers())) {
      CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
        try {
          Topics.awaitLeaders(admin, topic, 2);
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      Thread.sleep(1_000);
      assertFalse(waiting.isDone(), "the wait ended while no broker knew the topic: " + waiting);
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
      waiting.get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCreatedTopicTakesEveryRecordOfItsFirstRequestsInOrder() throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all",
        // small batches: several requests in flight to each partition from the first moment
        ProducerConfig.BATCH_SIZE_CONFIG, 2_048,
        ProducerConfig.LINGER_MS_CONFIG, 0,
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000))) {
      for (int t = 0; t < TOPICS; t++) {
        String topic = "created-" + t;
        Topics.create(kafka.bootstrapServers(), topic, PARTITIONS);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < PER_PARTITION; i++) {
          for (int p = 0; p < PARTITIONS; p++) {
            sent.add(producer.send(new ProducerRecord<>(topic, p, null, value(i))));
          }
        }
        producer.flush();
        for (Future<RecordMetadata> f : sent) f.get(); // an expired batch fails here
        assertEachPartitionHoldsItsRecordsInOrder(topic);
      }
    }
  }

  private static void assertEachPartitionHoldsItsRecordsInOrder(String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
      List<TopicPartition> all = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) all.add(new TopicPartition(topic, p));
      consumer.assign(all);
      int[] next = new int[PARTITIONS];
      int read = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (read < PARTITIONS * PER_PARTITION && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          assertEquals(new String(value(next[r.partition()]), StandardCharsets.UTF_8),
              new String(r.value(), StandardCharsets.UTF_8), topic + "-" + r.partition() + " at offset " + r.offset());
          next[r.partition()]++;
          read++;
        }
      }
      assertEquals(PARTITIONS * PER_PARTITION, read, topic + ": records read");
    }
  }

  private static byte[] value(int i) {
    return ("record-" + i).getBytes(StandardCharsets.UTF_8);
  }
}
