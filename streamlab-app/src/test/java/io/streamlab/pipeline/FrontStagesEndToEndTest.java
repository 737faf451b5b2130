package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.broker.Topics;
import io.streamlab.formats.Compression;
import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.metrics.Clock;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.KafkaBroker;
import io.streamlab.testing.TestValues;
import io.streamlab.udf.BoomFunction;
import io.streamlab.udf.UdfLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generator -> embedded Kafka -> Beam front stages -> DuckDB, once per transport format (each on
 * its example schema, so every column type is stored and read back). Each topic holds plain
 * events, compressed envelopes and a set of corrupt inputs; the test asserts that every good
 * event arrives with equal field values and every bad one is in {@code events_failed} with its
 * stage and original bytes, counted per stage.
 */
class FrontStagesEndToEndTest {
  private static final int PLAIN = 200;
  private static final int BATCHED = 300;
  private static final int PER_BATCH = 25;
  private static final int CORRUPT_PRODUCER = 90;
  private static final long SEED = 3;
  @TempDir static Path dir;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  static Stream<Arguments> cases() {
    RunnerChoice direct = new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of());
    RunnerChoice flink = new RunnerChoice("FlinkRunner", "[local]", 2, 1000, 250, List.of());
    return Stream.of(
        Arguments.of(TransportFormat.THRIFT, ExampleSchemas.SIMPLE_THRIFT, Compression.ZLIB, direct),
        Arguments.of(TransportFormat.AVRO, ExampleSchemas.COMPOUND_AVRO, Compression.ZSTD, direct),
        Arguments.of(TransportFormat.JSON, ExampleSchemas.MESSAGE_JSON, Compression.LZ4, flink));
  }

  @ParameterizedTest(name = "{0} ({1}, plain and {2}) on {3}")
  @MethodSource("cases")
  void everyEventArrivesEqualAndEveryBadOneIsDeadLettered(TransportFormat format, String schemaFile,
      Compression compression, RunnerChoice runner) throws Exception {
    String topic = "front-" + format;
    // one partition: KafkaIO's record bound is then exact (see IngestSettings.maxRecords)
    Topics.create(kafka.bootstrapServers(), topic, 1);
    Schema schema = ExampleSchemas.load(schemaFile);
    GeneratorSettings plain = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3).build();
    GeneratorSettings batched = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3)
        .compression(compression).maxRecordsPerBatch(PER_BATCH).build();
    Map<Integer, Long> expected = new HashMap<>();
    expected.putAll(generate(topic, schema, format, plain, 0, PLAIN).sequencesPerProducer());
    expected.putAll(generate(topic, schema, format, batched, 10, BATCHED).sequencesPerProducer());
    Corrupt corrupt = sendCorruptInputs(topic, schema, format, compression);
    expected.put(CORRUPT_PRODUCER, (long) corrupt.sequences);
    long messages = PLAIN + BATCHED / PER_BATCH + corrupt.messages;

    StoreSpec store = StoreSpec.duckdb(dir.resolve(format + ".duckdb"));
    Pipeline p = Pipeline.create(runner.toOptions());
    IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), topic, schema, format, store, "events", 500,
        messages, Duration.ofSeconds(120), new Decoding(new UdfLoader(BoomFunction.class.getName(), null))));
    p.run().waitUntilFinish();

    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      Verification v = TableVerifier.verify(c, "events", expected, java.util.Set.of());
      assertEquals(0, v.lost(), "lost");
      assertEquals(0, v.duplicated(), "duplicated");
      assertEquals(0, v.unexpected(), "unexpected");
      assertEquals(corrupt.failedByStage, v.failedByStage());
      assertEquals(PLAIN + BATCHED + corrupt.good.size(), v.rows() - v.failed(), "rows in the table");

      for (var e : Map.of(0, plain, 1, plain, 10, batched, 11, batched).entrySet()) {
        int producer = e.getKey();
        RandomRecordFactory f = new RandomRecordFactory(schema, e.getValue(), SEED * 1_000_003L + producer);
        List<Object> want = new ArrayList<>();
        for (long i = 0; i < expected.get(producer); i++) want.add(TestValues.normalize(f.next()));
        assertEquals(want, rows(c, schema, producer), "field values of producer " + producer);
      }
      assertEquals(corrupt.good, rows(c, schema, CORRUPT_PRODUCER), "good events of the broken envelope");

      for (var bad : corrupt.bytesBySequence.entrySet()) {
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT stage, original_bytes, error_message FROM events_failed WHERE sl_producer_id = ? AND sl_sequence = ?")) {
          ps.setInt(1, CORRUPT_PRODUCER);
          ps.setLong(2, bad.getKey());
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next(), "dead letter for sequence " + bad.getKey());
            assertEquals(corrupt.stageBySequence.get(bad.getKey()), rs.getString(1), "stage of sequence " + bad.getKey());
            assertArrayEquals(bad.getValue(), rs.getBytes(2), "original bytes of sequence " + bad.getKey());
            assertTrue(!rs.getString(3).isEmpty());
          }
        }
      }
    }
  }

  private static GeneratorStats generate(String topic, Schema schema, TransportFormat format, GeneratorSettings settings,
      int firstProducer, int count) throws Exception {
    GeneratorStats stats = new EventGenerator(new EventGenerator.Config(kafka.bootstrapServers(), topic, schema, format,
        settings, SEED, 2, firstProducer, 0, count, null, Map.of())).run();
    assertEquals(count, stats.acked());
    return stats;
  }

  /** Event fields of a producer's rows, in sequence order, normalized. */
  private static List<Object> rows(Connection c, Schema schema, int producer) throws Exception {
    List<Object> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM events WHERE sl_producer_id = ? ORDER BY sl_sequence")) {
      ps.setInt(1, producer);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) out.add(TestValues.eventColumns(rs, schema));
      }
    }
    return out;
  }

  /** What the corrupt producer sent and where each piece must end up. */
  private static final class Corrupt {
    int sequences;
    int messages;
    final Map<String, Long> failedByStage = new TreeMap<>();
    final Map<Long, byte[]> bytesBySequence = new HashMap<>();
    final Map<Long, String> stageBySequence = new HashMap<>();
    final List<Object> good = new ArrayList<>();

    void failed(String stage, long sequence, byte[] bytes) {
      failedByStage.merge(stage, 1L, Long::sum);
      stageBySequence.put(sequence, stage);
      if (bytes != null) bytesBySequence.put(sequence, bytes);
    }
  }

  private static Corrupt sendCorruptInputs(String topic, Schema schema, TransportFormat format, Compression compression)
      throws Exception {
    Corrupt k = new Corrupt();
    PayloadCodec codec = format.codec(schema);
    RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 99);
    byte[] garbage = new byte[64];
    Arrays.fill(garbage, (byte) 0xFF);
    Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers(),
        "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      // a plain event cut in half, and bytes that are no event at all
      byte[] good = codec.encode(f.next());
      byte[] truncated = Arrays.copyOf(good, good.length / 2);
      send(producer, topic, k, truncated);
      k.failed("decode", 0, truncated);
      send(producer, topic, k, garbage);
      k.failed("decode", 1, garbage);
      // a valid event the UDF throws on
      GenericRecord boom = f.next();
      boom.put(0, BoomFunction.MARKER + "-1");
      byte[] boomBytes = codec.encode(boom);
      send(producer, topic, k, boomBytes);
      k.failed("udf", 2, boomBytes);
      // an envelope of 3 events whose body does not decompress: each event is dead-lettered
      RecordHeaders h = new RecordHeaders();
      EventHeaders.write(h, CORRUPT_PRODUCER, k.sequences, Clock.nowMicros());
      h.add(Envelope.HEADER, compression.headerValue().getBytes(StandardCharsets.US_ASCII));
      h.add(Envelope.COUNT_HEADER, java.nio.ByteBuffer.allocate(4).putInt(3).array());
      byte[] badBody = new byte[100];
      Arrays.fill(badBody, (byte) 0x5A);
      producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, badBody, h)).get();
      k.messages++;
      k.failed("decompress", k.sequences++, badBody);
      k.failed("decompress", k.sequences++, null);
      k.failed("decompress", k.sequences++, null);
      // an envelope whose middle event is garbage: only that one fails
      Envelope.Builder b = new Envelope.Builder(compression);
      for (int i = 0; i < 3; i++) {
        GenericRecord e = f.next();
        byte[] payload = i == 1 ? garbage : codec.encode(e);
        b.add(new EventHeaders.Stamp(CORRUPT_PRODUCER, k.sequences, Clock.nowMicros()), payload);
        if (i == 1) k.failed("decode", k.sequences, garbage);
        else k.good.add(TestValues.normalize(e));
        k.sequences++;
      }
      RecordHeaders eh = new RecordHeaders();
      byte[] value = b.finish(eh);
      producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, value, eh)).get();
      k.messages++;
      if (format == TransportFormat.JSON) {
        byte[] wrongShape = "{\"messageId\": 5}".getBytes(StandardCharsets.UTF_8);
        k.failed("decode", k.sequences, wrongShape);
        send(producer, topic, k, wrongShape);
      }
    }
    return k;
  }

  private static void send(KafkaProducer<byte[], byte[]> producer, String topic, Corrupt k, byte[] value) throws Exception {
    ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, value);
    EventHeaders.write(r.headers(), CORRUPT_PRODUCER, k.sequences++, Clock.nowMicros());
    producer.send(r).get();
    k.messages++;
  }
}
