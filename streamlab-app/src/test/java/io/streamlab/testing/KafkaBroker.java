package io.streamlab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.GeneratorStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real embedded Kafka broker for one test class, started before its first test and stopped
 * after its last: {@code @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();}.
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
  private Path dir;
  private EmbeddedKafka kafka;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("streamlab-test-kafka");
    kafka = EmbeddedKafka.start(dir);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (kafka != null) kafka.close();
    if (dir != null) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /**
   * A new topic of {@code partitions} holding {@code events} Thrift events of {@code schema} from
   * {@code producers} generator producers, all acknowledged.
   *
   * @return the sequences sent per producer (what a verification expects)
   */
  public Map<Integer, Long> generatedTopic(String topic, int partitions, Schema schema, int producers, int events)
      throws Exception {
    Topics.create(bootstrapServers(), topic, partitions);
    GeneratorStats gen = new EventGenerator(new EventGenerator.Config(bootstrapServers(), topic, schema,
        TransportFormat.THRIFT, GeneratorSettings.builder().build(), producers, 2, 0, 0, events, null, Map.of())).run();
    assertEquals(events, gen.acked(), "events acknowledged by the broker");
    return gen.sequencesPerProducer();
  }
}
