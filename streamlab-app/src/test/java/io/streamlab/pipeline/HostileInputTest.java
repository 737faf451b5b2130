package io.streamlab.pipeline;

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
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.KafkaBroker;
import io.streamlab.udf.HostileFunction;
import io.streamlab.udf.UdfLoader;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.beam.sdk.Pipeline;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input battery (issues 16 and 17): one topic per format holding good events (plain
 * and in envelopes) mixed with every kind of bad input found so far, ingested by one bounded
 * pipeline run into DuckDB. For each kind: exactly one dead letter per event with the expected
 * stage and a cause naming what was wrong, the run ended normally (a poison message would fail
 * it), and every good event is in the table exactly once.
 */
class HostileInputTest {
  private static final int PLAIN = 60;
  private static final int BATCHED = 60;
  private static final int PER_BATCH = 20;
  private static final int BAD_PRODUCER = 90;
  /** Small enough for a test message to exceed, large enough for every good envelope. */
  private static final int MAX_MESSAGE_BYTES = 64 << 10;
  @TempDir static Path dir;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  /** One kind of bad input and where its dead letter(s) must be. */
  private record Kind(String name, String stage, String causeContains, int partition, long offset, List<Long> identities,
      boolean byOffset) {}

  /** Sends bad messages of producer {@link #BAD_PRODUCER} (or without identity) and records what must come of them. */
  private static final class Battery implements AutoCloseable {
    final String topic;
    final KafkaProducer<byte[], byte[]> producer;
    final List<Kind> kinds = new ArrayList<>();
    long sequences;
    long messages;

    Battery(String topic) {
      this.topic = topic;
      producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
          "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class,
          "max.request.size", 4 << 20));
    }

    /** A message with the next sequence (or {@code events} of them, for an envelope) in its headers. */
    void send(String name, String stage, String cause, byte[] value, int events, Consumer<Headers> moreHeaders)
        throws Exception {
      RecordHeaders h = new RecordHeaders();
      EventHeaders.write(h, BAD_PRODUCER, sequences, Clock.nowMicros());
      if (moreHeaders != null) moreHeaders.accept(h);
      RecordMetadata md = producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, value, h)).get();
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < events; i++) ids.add(sequences++);
      kinds.add(new Kind(name, stage, cause, md.partition(), md.offset(), ids, false));
      messages++;
    }

    /** A message whose identity headers lie: its dead letter carries its offset identity. */
    void sendLying(String name, String cause, byte[] value, Consumer<Headers> headers) throws Exception {
      RecordHeaders h = new RecordHeaders();
      headers.accept(h);
      RecordMetadata md = producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, value, h)).get();
      kinds.add(new Kind(name, "decode", cause, md.partition(), md.offset(), List.of(), true));
      messages++;
    }

    @Override
    public void close() {
      producer.close();
    }
  }

  @Test
  void thriftBatteryDeadLettersEveryKindOnceAndKeepsEveryGoodEvent() throws Exception {
    thriftBattery("hostile-thrift", WriteSettings.defaults());
  }

  /**
   * The same battery with each bundle's appends held in one DuckDB transaction (--commitPerBundle):
   * every kind still a dead letter, every good event in the table once. Where the refused row
   * lands in a bundle is the runner's choice here; a refused row after held batches of its bundle
   * is BatchAppendFnTest's and DuckDbHeldAppendsTest's.
   */
  @Test
  void thriftBatteryWithABundlePerTransactionLosesNoGoodEvent() throws Exception {
    thriftBattery("hostile-thrift-held", WriteSettings.defaults().withCommitPerBundle(true));
  }

  private static void thriftBattery(String topic, WriteSettings write) throws Exception {
    Schema schema = ExampleSchemas.load(ExampleSchemas.SIMPLE_THRIFT);
    TransportFormat format = TransportFormat.THRIFT;
    Topics.create(kafka.bootstrapServers(), topic, 1);
    Map<Integer, Long> expected = generateGood(topic, schema, format);
    PayloadCodec codec = format.codec(schema);
    RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 99);
    byte[] garbage = new byte[64];
    Arrays.fill(garbage, (byte) 0xFF);
    try (Battery b = new Battery(topic)) {
      // issue 17: poison messages that stopped ingestion
      b.send("null sl-envelope header", "decompress", "has no value", codec.encode(f.next()), 1,
          h -> h.add(Envelope.HEADER, null));
      b.send("unknown struct nested 5,000 levels", "decode", "--maxNestingDepth", deeplyNested(codec.encode(f.next()), 5000), 1, null);
      b.send("invalid UTF-8 in a string", "decode", "invalid UTF-8", codec.encode(withFirst(f.next(), badUtf8("A"))), 1, null);
      b.send("NUL in a string", "decode", "NUL", codec.encode(withFirst(f.next(), new Utf8("A\u0000B"))), 1, null);
      // issue 17: amplification and declared sizes
      b.send("16 bytes announcing 20,000 events", "decompress", "--maxEnvelopeEvents", Arrays.copyOf(garbage, 16), 1,
          h -> envelopeHeaders(h, "zlib", 20_000));
      b.send("zstd frame declaring 200 MB", "decompress", "--maxDecompressedBytes", zstdFrameDeclaring(200_000_000), 1,
          h -> envelopeHeaders(h, "zstd", 1));
      b.send("lz4 block declaring 200 MB", "decompress", "--maxDecompressedBytes",
          ByteBuffer.allocate(20).putInt(200_000_000).array(), 1, h -> envelopeHeaders(h, "lz4", 1));
      // issue 17: identities that lie (dead letters under the message's offset identity)
      byte[] good = codec.encode(f.next());
      b.sendLying("producer id written as text \"9005\"", "text", good, h -> {
        EventHeaders.write(h, 0, 0, 0);
        h.remove(EventHeaders.PRODUCER_ID);
        h.add(EventHeaders.PRODUCER_ID, "9005".getBytes(StandardCharsets.US_ASCII));
      });
      b.sendLying("producer id -1", "negative", good, h -> EventHeaders.write(h, -1, 5, 0));
      b.sendLying("sequence of 7 bytes", "not 8 bytes", good, h -> {
        EventHeaders.write(h, 7, 0, 0);
        h.remove(EventHeaders.SEQUENCE);
        h.add(EventHeaders.SEQUENCE, new byte[7]);
      });
      // issue 16's kinds
      b.send("corrupt Thrift", "decode", "not a valid Thrift", garbage, 1, null);
      Envelope.Builder env = new Envelope.Builder(Compression.ZSTD);
      for (int i = 0; i < 3; i++) env.add(new EventHeaders.Stamp(BAD_PRODUCER, b.sequences + i, Clock.nowMicros()), codec.encode(f.next()));
      RecordHeaders envHeaders = new RecordHeaders();
      byte[] envelope = env.finish(envHeaders);
      b.send("truncated envelope", "decompress", "Src size is incorrect", Arrays.copyOf(envelope, envelope.length / 2), 3,
          h -> envelopeHeaders(h, "zstd", 3));
      b.send("unknown compression", "decompress", "unknown envelope compression 'brotli'", envelope, 2,
          h -> envelopeHeaders(h, "brotli", 2));
      Schema other = ExampleSchemas.load(ExampleSchemas.DEFAULT_THRIFT);
      b.send("message of another schema", "decode", "required field", TransportFormat.THRIFT.codec(other)
          .encode(new RandomRecordFactory(other, GeneratorSettings.builder().build(), 5).next()), 1, null);
      byte[] oversize = new byte[100_000];
      Arrays.fill(oversize, (byte) 'x');
      b.send("oversize message", "decode", "--maxMessageBytes", oversize, 1, null);
      b.send("missing required field", "decode", "required field", new byte[] {0}, 1, null);
      b.send("UDF throws", "udf", "HostileFunction refuses", codec.encode(withFirst(f.next(), new Utf8(HostileFunction.THROW))), 1, null);
      b.send("UDF returns another schema", "udf", "another schema",
          codec.encode(withFirst(f.next(), new Utf8(HostileFunction.OTHER_SCHEMA))), 1, null);
      b.send("UDF recurses until the stack overflows", "udf", "StackOverflowError",
          codec.encode(withFirst(f.next(), new Utf8(HostileFunction.RECURSE))), 1, null);
      b.send("row the table refuses", "write", "", codec.encode(withFirst(f.next(), new Utf8(HostileFunction.REFUSED))), 1, null);
      b.send("corrupt Thrift again (trace stored once)", "decode", "not a valid Thrift", garbage, 1, null);
      expected.put(BAD_PRODUCER, b.sequences);
      long messages = PLAIN + BATCHED / PER_BATCH + b.messages;
      ingestAndCheck(topic, schema, format, expected, b, messages, write);
    }
  }

  @Test
  void jsonBatteryDeadLettersEveryKindOnceAndKeepsEveryGoodEvent() throws Exception {
    String topic = "hostile-json";
    Schema schema = ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON);
    TransportFormat format = TransportFormat.JSON;
    Topics.create(kafka.bootstrapServers(), topic, 1);
    Map<Integer, Long> expected = generateGood(topic, schema, format);
    PayloadCodec codec = format.codec(schema);
    RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 99);
    try (Battery b = new Battery(topic)) {
      String json = new String(codec.encode(f.next()), StandardCharsets.UTF_8);
      // a string value replaced by one with an invalid UTF-8 byte
      int quote = json.indexOf(":\"") + 2;
      ByteArrayOutputStream bad = new ByteArrayOutputStream();
      bad.write(json.substring(0, quote).getBytes(StandardCharsets.UTF_8));
      bad.write(new byte[] {'A', (byte) 0xC3, '('});
      bad.write(json.substring(quote).getBytes(StandardCharsets.UTF_8));
      b.send("invalid UTF-8 in JSON", "decode", "UTF-8", bad.toByteArray(), 1, null);
      b.send("NUL in a JSON string", "decode", "NUL",
          (json.substring(0, quote) + "\\u0000" + json.substring(quote)).getBytes(StandardCharsets.UTF_8), 1, null);
      b.send("JSON nested 5,000 levels", "decode", "nesting depth",
          ("{\"deep\":" + "[".repeat(5000) + "]".repeat(5000) + "," + json.substring(1)).getBytes(StandardCharsets.UTF_8), 1, null);
      b.send("message of another schema", "decode", "required", "{\"foo\": 1}".getBytes(StandardCharsets.UTF_8), 1, null);
      b.send("missing required field", "decode", "required", "{}".getBytes(StandardCharsets.UTF_8), 1, null);
      b.send("not JSON", "decode", "not valid JSON", "garbage".getBytes(StandardCharsets.UTF_8), 1, null);
      expected.put(BAD_PRODUCER, b.sequences);
      ingestAndCheck(topic, schema, format, expected, b, PLAIN + BATCHED / PER_BATCH + b.messages,
          WriteSettings.defaults());
    }
  }

  private static Map<Integer, Long> generateGood(String topic, Schema schema, TransportFormat format) throws Exception {
    Map<Integer, Long> expected = new HashMap<>();
    GeneratorSettings plain = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3).build();
    GeneratorSettings batched = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3)
        .compression(Compression.ZSTD).maxRecordsPerBatch(PER_BATCH).build();
    for (var run : List.of(Map.entry(0, plain), Map.entry(10, batched))) {
      int count = run.getKey() == 0 ? PLAIN : BATCHED;
      GeneratorStats s = new EventGenerator(new EventGenerator.Config(kafka.bootstrapServers(), topic, schema, format,
          run.getValue(), 7, 1, run.getKey(), 0, count, null, Map.of())).run();
      assertEquals(count, s.acked());
      expected.putAll(s.sequencesPerProducer());
    }
    return expected;
  }

  private static void ingestAndCheck(String topic, Schema schema, TransportFormat format, Map<Integer, Long> expected,
      Battery b, long messages, WriteSettings write) throws Exception {
    StoreSpec store = StoreSpec.duckdb(dir.resolve(topic + ".duckdb"));
    Pipeline p = Pipeline.create(new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of()).toOptions());
    Decoding decoding = new Decoding(new UdfLoader(HostileFunction.class.getName(), null), MAX_MESSAGE_BYTES,
        Decoding.DEFAULT_MAX_ENVELOPE_EVENTS, Decoding.DEFAULT_MAX_DECOMPRESSED_BYTES, Decoding.DEFAULT_MAX_NESTING_DEPTH);
    IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), topic, schema, format, store, "events", 500,
        messages, Duration.ofSeconds(120), decoding, write));
    p.run().waitUntilFinish(); // a poison message would fail the run here

    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      Map<String, Long> byStage = new TreeMap<>();
      long byOffset = 0;
      for (Kind k : b.kinds) {
        if (k.byOffset()) {
          byOffset++;
          assertDeadLetter(c, k, -1 - k.partition(), k.offset());
          byStage.merge(k.stage(), 1L, Long::sum);
        }
        for (long seq : k.identities()) {
          assertDeadLetter(c, k, BAD_PRODUCER, seq);
          byStage.merge(k.stage(), 1L, Long::sum);
        }
      }
      Verification v = TableVerifier.verify(c, "events", expected, Set.of());
      assertEquals(0, v.lost(), "lost");
      assertEquals(0, v.duplicated(), "duplicated");
      assertEquals(byOffset, v.unexpected(), "dead letters under an offset identity");
      assertEquals(byStage, v.failedByStage(), "dead letters per stage");
      long good = expected.entrySet().stream().filter(e -> e.getKey() != BAD_PRODUCER).mapToLong(Map.Entry::getValue).sum();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT (sl_producer_id, sl_sequence)) FROM events "
              + "WHERE sl_producer_id <> " + BAD_PRODUCER)) {
        rs.next();
        assertEquals(good, rs.getLong(1), "good events in the table");
        assertEquals(good, rs.getLong(2), "good events in the table, each once");
      }
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM events WHERE sl_producer_id = " + BAD_PRODUCER)) {
        rs.next();
        assertEquals(0, rs.getLong(1), "no bad event in the table");
      }
      // a cause's stack trace is stored once; the same cause again only refers to it
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM events_failed WHERE cause LIKE 'same cause as%'")) {
        rs.next();
        if (format == TransportFormat.THRIFT) assertTrue(rs.getLong(1) >= 1, "a repeated cause refers to its first trace");
      }
    }
  }

  private static void assertDeadLetter(Connection c, Kind k, int producer, long sequence) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("SELECT stage, error_message, cause, original_bytes FROM "
        + "events_failed WHERE sl_producer_id = ? AND sl_sequence = ?")) {
      ps.setInt(1, producer);
      ps.setLong(2, sequence);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), k.name() + ": no dead letter for " + producer + "-" + sequence);
        String what = k.name() + " (" + rs.getString(2) + " | " + rs.getString(3).lines().findFirst().orElse("") + ")";
        assertEquals(k.stage(), rs.getString(1), "stage of " + what);
        assertTrue((rs.getString(2) + "\n" + rs.getString(3)).contains(k.causeContains()), "cause of " + what);
        assertTrue(!rs.getString(3).isEmpty(), "stored cause of " + what);
        if (k.causeContains().equals("--maxMessageBytes")) assertEquals(FrontFn.MAX_STORED_BYTES, rs.getBytes(4).length, what);
        assertTrue(!rs.next(), k.name() + ": dead-lettered more than once");
      }
    }
  }

  private static GenericRecord withFirst(GenericRecord r, Utf8 value) {
    r.put(0, value);
    return r;
  }

  private static Utf8 badUtf8(String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    byte[] b = Arrays.copyOf(p, p.length + 2);
    b[p.length] = (byte) 0xC3; // a lead byte followed by a non-continuation byte
    b[p.length + 1] = '(';
    return new Utf8(b);
  }

  private static void envelopeHeaders(Headers h, String compression, int count) {
    h.add(Envelope.HEADER, compression.getBytes(StandardCharsets.US_ASCII));
    h.add(Envelope.COUNT_HEADER, ByteBuffer.allocate(4).putInt(count).array());
  }

  /** A valid event preceded by an unknown struct field nested {@code depth} levels (3 bytes a level). */
  private static byte[] deeplyNested(byte[] event, int depth) {
    ByteBuffer b = ByteBuffer.allocate(depth * 4 + event.length);
    for (int i = 0; i < depth; i++) b.put((byte) 12).putShort((short) 999); // field 999, type STRUCT
    for (int i = 0; i < depth; i++) b.put((byte) 0); // STOP of each nested struct
    b.put(event);
    return Arrays.copyOf(b.array(), b.position());
  }

  /** A zstd frame header declaring {@code size} content bytes (single segment, 4-byte size), then an empty raw block. */
  private static byte[] zstdFrameDeclaring(int size) {
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0xFD2FB528).put((byte) 0xA0).putInt(size).put((byte) 1).put((byte) 0).put((byte) 0);
    return b.array();
  }
}
