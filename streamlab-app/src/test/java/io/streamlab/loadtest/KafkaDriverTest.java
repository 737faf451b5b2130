package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** How the load-test flags map onto kafka-clients settings (the broker itself is exercised in LoadtestRunTest). */
class KafkaDriverTest {
  @Test
  void defaultsLeaveTheClientsOwnBatching() {
    Map<String, Object> p = new KafkaDriver("127.0.0.1:1", ClientSettings.DEFAULTS).producerConfig();
    assertFalse(p.containsKey(ProducerConfig.BATCH_SIZE_CONFIG));
    assertFalse(p.containsKey(ProducerConfig.LINGER_MS_CONFIG));
    assertEquals("none", p.get(ProducerConfig.COMPRESSION_TYPE_CONFIG));
    Map<String, Object> c = new KafkaDriver("127.0.0.1:1", ClientSettings.DEFAULTS).consumerConfig("g");
    assertFalse(c.containsKey(ConsumerConfig.MAX_POLL_RECORDS_CONFIG));
    assertEquals("g", c.get(ConsumerConfig.GROUP_ID_CONFIG));
  }

  @Test
  void tunedBatchingAndFlowControlMapOntoKafkaSettings() throws Exception {
    ClientSettings tuned = new ClientSettings(0, 1_000_000, Duration.ofMillis(20), "lz4", 5_000, 64_000_000, 0);
    KafkaDriver d = new KafkaDriver("127.0.0.1:1", tuned);
    Map<String, Object> p = d.producerConfig();
    assertEquals(1_000_000, p.get(ProducerConfig.BATCH_SIZE_CONFIG));
    assertEquals(20, p.get(ProducerConfig.LINGER_MS_CONFIG));
    assertEquals("lz4", p.get(ProducerConfig.COMPRESSION_TYPE_CONFIG));
    assertEquals(true, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
    Map<String, Object> c = d.consumerConfig("g");
    assertEquals(5_000, c.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG));
    assertEquals(64_000_000, c.get(ConsumerConfig.FETCH_MAX_BYTES_CONFIG));
  }

  @Test
  void unknownCompressionIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ClientSettings(0, 0, null, "brotli", 0, 0, 0));
    assertTrue(e.getMessage().startsWith("--compression must be one of"), e.getMessage());
  }
}
