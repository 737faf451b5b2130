package io.streamlab.pipeline.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.Compression;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.generator.PubsubSink;
import io.streamlab.loadtest.ClientSettings;
import io.streamlab.loadtest.PubSubDriver;
import io.streamlab.loadtest.PubSubEndpoint;
import io.streamlab.pipeline.Decoding;
import io.streamlab.pipeline.IngestPipeline;
import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.PubSubEmulator;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * generate --sink=pubsub -> Google's Pub/Sub emulator -> ingest --source=pubsub (Beam's PubsubIO,
 * on the DirectRunner) -> a DuckDB file written exactly once (STORAGE_WRITE_API: Pub/Sub may
 * redeliver): every event, plain or batched in a compressed envelope, must be in the table once, its identity carried in the message attributes. Both sides
 * find the emulator through PUBSUB_EMULATOR_HOST as a user's would. Skipped where the emulator is
 * not installed.
 */
class PubsubIngestEmulatorTest {
  private static final String PROJECT = "streamlab-test";
  private static final int PLAIN = 1_500;
  private static final int BATCHED = 1_000;
  private static final Schema SCHEMA = SchemaLoader.loadDefault();
  @TempDir Path dir;

  @Test
  void everyEventPublishedToPubsubIsInTheTableOnce() throws Exception {
    try (PubSubEmulator emulator = PubSubEmulator.start(dir.resolve("emulator.log"))) {
      Map<String, String> env = Map.of(PubSubEndpoint.EMULATOR_VARIABLE, emulator.hostPort());
      GeneratorStats plain;
      GeneratorStats batched;
      try (PubSubDriver driver = new PubSubDriver(PROJECT, ClientSettings.DEFAULTS, PubSubEndpoint.fromEnvironment(env))) {
        driver.createTopic("events", "events-ingest", 1, 0);
        EventGenerator.Config config = new EventGenerator.Config(null, "events", SCHEMA, TransportFormat.THRIFT,
            GeneratorSettings.builder().build(), 7, 2, 0, 0, PLAIN, null, Map.of());
        plain = new EventGenerator(config, () -> new PubsubSink(driver, "events")).run();
        // envelopes: the sl-envelope and sl-count headers travel as attributes too
        EventGenerator.Config zlib = new EventGenerator.Config(null, "events", SCHEMA, TransportFormat.THRIFT,
            GeneratorSettings.builder().compression(Compression.ZLIB).maxRecordsPerBatch(50).build(), 8, 2, 10, 0,
            BATCHED, null, Map.of());
        batched = new EventGenerator(zlib, () -> new PubsubSink(driver, "events")).run();
      }
      System.out.println("published " + plain.acked() + " plain and " + batched.acked() + " batched events");
      assertEquals(PLAIN, plain.acked());
      assertEquals(BATCHED, batched.acked());

      StoreSpec store = StoreSpec.duckdb(dir.resolve("pubsub.duckdb"));
      // a Pub/Sub read has no end: run without blocking, watch the table, cancel
      Pipeline p = Pipeline.create(new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250,
          List.of("--blockOnRun=false")).toOptions());
      // Pub/Sub redelivers (at least once); the exactly-once write method keeps one row per event
      IngestPipeline.build(p, new IngestSettings(null, null, SCHEMA, TransportFormat.THRIFT, store, "events", 500,
          null, null, Decoding.DEFAULT, WriteSettings.of(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD)),
          new PubsubSource("projects/" + PROJECT + "/subscriptions/events-ingest", env,
          UnaryOperator.identity()));
      PipelineResult result = p.run();
      Map<Integer, Long> expected = new HashMap<>(plain.sequencesPerProducer());
      expected.putAll(batched.sequencesPerProducer());
      Verification v;
      try {
        v = awaitRows(result, store, expected, PLAIN + BATCHED);
      } finally {
        result.cancel();
      }
      assertEquals(PLAIN + BATCHED, v.expected());
      assertEquals(0, v.lost(), "lost rows");
      assertEquals(0, v.duplicated(), "duplicated rows");
      assertEquals(0, v.unexpected(), "unexpected rows");
      assertEquals(0, v.failed(), "dead-lettered rows");
      assertEquals(PLAIN + BATCHED, v.rows());
    }
  }

  /** Verifies the table until no event is missing (a Pub/Sub read has no end), at most two minutes. */
  private static Verification awaitRows(PipelineResult result, StoreSpec store, Map<Integer, Long> expected, long rows)
      throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      if (result.getState().isTerminal()) {
        result.waitUntilFinish(); // throws the pipeline's error
        throw new AssertionError("the pipeline ended: " + result.getState());
      }
      Verification v = null;
      try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
        v = TableVerifier.verify(c, "events", expected, java.util.Set.of());
      } catch (Exception notYetCreated) {
        // the table appears with the first append
      }
      System.out.println("table: " + (v == null ? "not yet" : v.rows() + " rows, " + v.failed() + " failed"));
      if ((v != null && v.lost() == 0) || System.nanoTime() > deadline) {
        if (v == null) throw new AssertionError("no table after two minutes");
        Thread.sleep(2_000); // a redelivered duplicate would arrive now
        try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
          return TableVerifier.verify(c, "events", expected, java.util.Set.of());
        }
      }
      Thread.sleep(500);
    }
  }
}
