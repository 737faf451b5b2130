package io.streamlab.pipeline.source;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

class KafkaSourceTest {
  /**
   * A consumer with client telemetry on (Kafka's default) asks the broker for its telemetry id
   * (here, with no broker, it gives up after the timeout without an error); with telemetry off it
   * refuses at once.
   */
  @Test
  void theReadersConsumersRunWithoutClientTelemetry() {
    Map<String, Object> c = new HashMap<>(KafkaSource.consumerConfig("g"));
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"); // nothing listens: with telemetry on, the id request waits out its timeout
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      assertThrows(IllegalStateException.class, () -> consumer.clientInstanceId(Duration.ofMillis(200)));
    }
  }
}
