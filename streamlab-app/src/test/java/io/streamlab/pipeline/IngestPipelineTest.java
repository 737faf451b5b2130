package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.source.KafkaReader;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.KafkaBroker;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded Kafka -> Beam (DirectRunner and FlinkRunner) -> DuckDB: every generated
 * (producer, sequence) pair must be in the table, exactly once.
 */
class IngestPipelineTest {
  private static final int EVENTS = 3_000;
  @TempDir static Path dir;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  private static final Schema SCHEMA = SchemaLoader.loadDefault();

  @Test
  void directRunnerIngestsEveryEvent() throws Exception {
    ingestAndVerify("direct", new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of()));
  }

  @Test
  void flinkRunnerIngestsEveryEvent() throws Exception {
    ingestAndVerify("flink", new RunnerChoice("FlinkRunner", "[local]", 2, 1000, 250, List.of()));
  }

  /** streamlab's own reader, over three partitions read by two splits (one split has two). */
  @Test
  void polledReaderIngestsEveryEventOnFlink() throws Exception {
    ingestAndVerify("flink-polled", new RunnerChoice("FlinkRunner", "[local]", 2, 1000, 250, List.of()), KafkaReader.POLLED, 3);
  }

  @Test
  void polledReaderIngestsEveryEventOnTheDirectRunner() throws Exception {
    ingestAndVerify("direct-polled", new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of()), KafkaReader.POLLED, 3);
  }

  private void ingestAndVerify(String name, RunnerChoice runner) throws Exception {
    ingestAndVerify(name, runner, KafkaReader.KAFKAIO, 2);
  }

  private void ingestAndVerify(String name, RunnerChoice runner, KafkaReader reader, int partitions) throws Exception {
    String topic = "events-" + name;
    Map<Integer, Long> sent = kafka.generatedTopic(topic, partitions, SCHEMA, 7, EVENTS);

    StoreSpec store = StoreSpec.duckdb(dir.resolve(name + ".duckdb"));
    Pipeline p = Pipeline.create(runner.toOptions());
    IngestSettings settings = new IngestSettings(kafka.bootstrapServers(), topic, SCHEMA, TransportFormat.THRIFT,
        store, "events", 500, (long) EVENTS, Duration.ofSeconds(120), Decoding.DEFAULT);
    IngestPipeline.build(p, settings, IngestPipeline.kafka(settings, reader));
    p.run().waitUntilFinish();

    Verification v;
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, "events", sent, java.util.Set.of());
    }
    assertEquals(EVENTS, v.expected());
    assertEquals(0, v.lost(), "lost rows");
    assertEquals(0, v.duplicated(), "duplicated rows");
    assertEquals(0, v.unexpected(), "unexpected rows");
    assertEquals(0, v.failed(), "dead-lettered rows");
    assertEquals(EVENTS, v.rows());
    assertEquals(EVENTS, v.measuredRows());
  }
}
