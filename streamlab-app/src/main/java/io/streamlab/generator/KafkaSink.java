package io.streamlab.generator;

import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.EventKey;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A Kafka topic through one KafkaProducer: idempotent, fully acknowledged sends; a plain event's
 * identity in the record key ({@link EventKey}), an envelope's headers as Kafka headers.
 */
final class KafkaSink implements MessageSink {
  private final String topic;
  private final KafkaProducer<byte[], byte[]> producer;

  KafkaSink(String bootstrapServers, String topic, Map<String, Object> overrides) {
    this.topic = topic;
    this.producer = new KafkaProducer<>(config(bootstrapServers, overrides));
  }

  @Override
  public void send(byte[] value, Headers headers, Consumer<Exception> done) {
    producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, value, headers), (meta, error) -> done.accept(error));
  }

  @Override
  public void send(EventHeaders.Stamp identity, byte[] value, Consumer<Exception> done) {
    producer.send(new ProducerRecord<>(topic, EventKey.of(identity), value), (meta, error) -> done.accept(error));
  }

  @Override
  public void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close();
  }

  static Map<String, Object> config(String bootstrapServers, Map<String, Object> overrides) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
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
    // The key is the event's identity, not a partitioning choice: partitions stay the sticky
    // partitioner's, filling one batch at a time as with no key, not spread by the key's hash.
    p.put(ProducerConfig.PARTITIONER_IGNORE_KEYS_CONFIG, true);
    p.putAll(overrides);
    return p;
  }
}
