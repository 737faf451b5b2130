package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.formats.Compression;
import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.EventKey;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.pipeline.source.Source;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.udf.BoomFunction;
import io.streamlab.udf.UdfLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The front stages as a composite transform, in memory (TestPipeline on the DirectRunner, PAssert):
 * messages in, table records and dead letters out, each with the event's identity; a message that
 * cannot be decoded and an event the UDF refuses become dead letters of their stage, the good
 * events around them go on. (FrontStagesEndToEndTest and HostileInputTest: the same through Kafka.)
 */
class FrontStagesTest {
  static final Schema SCHEMA = SchemaLoader.loadDefault();
  static final int PRODUCER = 7;
  static final int GOOD = 20;
  private static final long NOT_AN_EVENT = GOOD, REFUSED_BY_UDF = GOOD + 1;

  @Test
  void goodEventsBecomeRowsAndEachFailureADeadLetterOfItsStage() {
    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    RowsWithDeadLetters out = p
        .apply("Messages", Create.of(messages()).withCoder(Source.messageCoder()))
        .apply("Decode", new FrontStages(SCHEMA, TransportFormat.THRIFT,
            new Decoding(new UdfLoader(BoomFunction.class.getName(), null))));

    PAssert.that(out.rows()).satisfies(rows -> {
      TreeSet<Long> sequences = new TreeSet<>();
      for (GenericRecord r : rows) {
        assertEquals(PRODUCER, r.get(SystemColumns.PRODUCER_ID));
        assertEquals(1_000L + (Long) r.get(SystemColumns.SEQUENCE), r.get(SystemColumns.SEND_TIME_MICROS),
            "send time from the headers");
        sequences.add((Long) r.get(SystemColumns.SEQUENCE));
      }
      assertEquals(GOOD, sequences.size(), "every good event once: " + sequences);
      assertEquals(GOOD - 1, sequences.last());
      return null;
    });
    PAssert.that(out.deadLetters()).satisfies(letters -> {
      Map<Long, String> stageBySequence = new TreeMap<>();
      for (GenericRecord r : letters) stageBySequence.put((Long) r.get(SystemColumns.SEQUENCE), r.get("stage").toString());
      assertEquals(Map.of(NOT_AN_EVENT, "decode", REFUSED_BY_UDF, "udf"), stageBySequence);
      return null;
    });
    p.run().waitUntilFinish();
  }

  /**
   * An oversize message, and an oversize event inside a small compressed envelope, are dead
   * letters that keep their bytes as they are: up to 64 KiB of them, none added (both were
   * zero-padded to 64 KiB when --maxMessageBytes was below that).
   */
  @Test
  void anOversizeMessageOrEventKeepsItsOwnBytes() {
    byte[] message = new byte[2_000];
    Arrays.fill(message, (byte) 'x');
    byte[] event = new byte[1_500];
    Arrays.fill(event, (byte) 'y');
    Envelope.Builder envelope = new Envelope.Builder(Compression.ZSTD);
    envelope.add(new EventHeaders.Stamp(PRODUCER, 1, 1_001), event);
    RecordHeaders envelopeHeaders = new RecordHeaders();
    byte[] compressed = envelope.finish(envelopeHeaders);
    assertTrue(compressed.length < 1_000, "the envelope itself is within the limit: " + compressed.length);
    List<KafkaRecord<byte[], byte[]>> in = List.of(message(0, message),
        new KafkaRecord<>("events", 0, 1, 0L, KafkaTimestampType.CREATE_TIME, envelopeHeaders, KV.of(null, compressed)));

    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    RowsWithDeadLetters out = p
        .apply("Messages", Create.of(in).withCoder(Source.messageCoder()))
        .apply("Decode", new FrontStages(SCHEMA, TransportFormat.THRIFT, new Decoding(UdfLoader.IDENTITY, 1_000,
            Decoding.DEFAULT_MAX_ENVELOPE_EVENTS, Decoding.DEFAULT_MAX_DECOMPRESSED_BYTES, Decoding.DEFAULT_MAX_NESTING_DEPTH)));
    PAssert.that(out.rows()).empty();
    PAssert.that(out.deadLetters()).satisfies(letters -> {
      Map<Long, String> kept = new TreeMap<>();
      for (GenericRecord r : letters) {
        long seq = (Long) r.get(SystemColumns.SEQUENCE);
        ByteBuffer b = (ByteBuffer) r.get("original_bytes");
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        kept.put(seq, bytes.length + " bytes, " + (Arrays.equals(bytes, seq == 0 ? message : event) ? "as sent" : "not as sent"));
      }
      assertEquals(Map.of(0L, "2000 bytes, as sent", 1L, "1500 bytes, as sent"), kept);
      return null;
    });
    p.run().waitUntilFinish();
  }

  /**
   * The read stage counts broker messages and their bytes, the events read count what was in
   * them: an envelope is one message of several events.
   */
  @Test
  void theReadCountsAreMessagesTheirBytesAndTheEventsInThem() {
    PayloadCodec codec = TransportFormat.THRIFT.codec(SCHEMA);
    RandomRecordFactory events = new RandomRecordFactory(SCHEMA, GeneratorSettings.builder().build(), 3);
    List<KafkaRecord<byte[], byte[]>> in = new ArrayList<>();
    for (long seq = 0; seq < 3; seq++) in.add(message(seq, codec.encode(events.next())));
    Envelope.Builder envelope = new Envelope.Builder(Compression.ZSTD);
    envelope.add(new EventHeaders.Stamp(PRODUCER, 3, 1_003), codec.encode(events.next()));
    envelope.add(new EventHeaders.Stamp(PRODUCER, 4, 1_004), codec.encode(events.next()));
    RecordHeaders envelopeHeaders = new RecordHeaders();
    in.add(new KafkaRecord<>("events", 0, 3, 0L, KafkaTimestampType.CREATE_TIME, envelopeHeaders,
        KV.of(null, envelope.finish(envelopeHeaders))));
    long bytes = in.stream().mapToLong(m -> m.getKV().getValue().length).sum();

    IngestMetrics metrics = IngestMetrics.get();
    long messagesBefore = metrics.stage(Stage.READ).snapshot().elements();
    long bytesBefore = metrics.bytesRead(), eventsBefore = metrics.eventsRead();
    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    RowsWithDeadLetters out = p
        .apply("Messages", Create.of(in).withCoder(Source.messageCoder()))
        .apply("Decode", new FrontStages(SCHEMA, TransportFormat.THRIFT, Decoding.DEFAULT));
    PAssert.that(out.deadLetters()).empty();
    p.run().waitUntilFinish();

    assertEquals(4, metrics.stage(Stage.READ).snapshot().elements() - messagesBefore, "messages");
    assertEquals(bytes, metrics.bytesRead() - bytesBefore, "the messages' bytes");
    assertEquals(5, metrics.eventsRead() - eventsBefore, "events");
  }

  /**
   * The identity comes from streamlab's record key, else from the headers, else from the offset;
   * a key that claims to be streamlab's but is malformed makes a dead letter under the offset.
   */
  @Test
  void identityFromTheRecordKeyThenTheHeadersThenTheOffset() {
    PayloadCodec codec = TransportFormat.THRIFT.codec(SCHEMA);
    RandomRecordFactory events = new RandomRecordFactory(SCHEMA, GeneratorSettings.builder().build(), 2);
    List<KafkaRecord<byte[], byte[]>> in = new ArrayList<>();
    // the key wins over headers that say otherwise
    in.add(keyed(100, EventKey.of(new EventHeaders.Stamp(PRODUCER, 0, 5_000)), message(99, codec.encode(events.next()))));
    in.add(message(1, codec.encode(events.next())));
    in.add(keyed(102, "order-17".getBytes(StandardCharsets.UTF_8), plain(102, codec.encode(events.next()))));
    byte[] truncated = Arrays.copyOf(EventKey.of(new EventHeaders.Stamp(PRODUCER, 3, 5_003)), 12);
    in.add(keyed(103, truncated, plain(103, codec.encode(events.next()))));
    in.add(keyed(104, EventKey.of(new EventHeaders.Stamp(PRODUCER, -4, 5_004)), plain(104, codec.encode(events.next()))));

    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    RowsWithDeadLetters out = p
        .apply("Messages", Create.of(in).withCoder(Source.messageCoder()))
        .apply("Decode", new FrontStages(SCHEMA, TransportFormat.THRIFT, Decoding.DEFAULT));
    PAssert.that(out.rows()).satisfies(rows -> {
      Map<String, Long> sendTimes = new TreeMap<>();
      for (GenericRecord r : rows) {
        sendTimes.put(r.get(SystemColumns.PRODUCER_ID) + "-" + r.get(SystemColumns.SEQUENCE), (Long) r.get(SystemColumns.SEND_TIME_MICROS));
      }
      assertEquals(Map.of(PRODUCER + "-0", 5_000L, PRODUCER + "-1", 1_001L, "-1-102", 0L), sendTimes,
          "the key's identity, the headers', and a user's key read as no identity (the offset's)");
      return null;
    });
    PAssert.that(out.deadLetters()).satisfies(letters -> {
      Map<Long, String> causeByOffset = new TreeMap<>();
      for (GenericRecord r : letters) {
        assertEquals(-1, r.get(SystemColumns.PRODUCER_ID), "a malformed key's message is filed under its offset");
        causeByOffset.put((Long) r.get(SystemColumns.SEQUENCE), r.get("stage") + ": " + r.get("error_message") + " [" + r.get("headers") + "]");
      }
      assertEquals(Set.of(103L, 104L), causeByOffset.keySet());
      assertTrue(causeByOffset.get(103L).startsWith("decode: ") && causeByOffset.get(103L).contains("12 bytes is not a streamlab event key"),
          causeByOffset.get(103L));
      assertTrue(causeByOffset.get(104L).contains("negative") && causeByOffset.get(104L).contains("[key=24B, kafka=events/0@104]"),
          causeByOffset.get(104L));
      return null;
    });
    p.run().waitUntilFinish();
  }

  private static KafkaRecord<byte[], byte[]> keyed(long offset, byte[] key, KafkaRecord<byte[], byte[]> m) {
    return new KafkaRecord<>(m.getTopic(), 0, offset, 0L, KafkaTimestampType.CREATE_TIME, m.getHeaders(), KV.of(key, m.getKV().getValue()));
  }

  private static KafkaRecord<byte[], byte[]> plain(long offset, byte[] value) {
    return new KafkaRecord<>("events", 0, offset, 0L, KafkaTimestampType.CREATE_TIME, new RecordHeaders(), KV.of(null, value));
  }

  /** GOOD events, then bytes that are no Thrift event, then an event the UDF throws on. */
  static List<KafkaRecord<byte[], byte[]>> messages() {
    PayloadCodec codec = TransportFormat.THRIFT.codec(SCHEMA);
    RandomRecordFactory events = new RandomRecordFactory(SCHEMA, GeneratorSettings.builder().build(), 1);
    List<KafkaRecord<byte[], byte[]>> out = new ArrayList<>();
    for (long seq = 0; seq < GOOD; seq++) out.add(message(seq, codec.encode(events.next())));
    out.add(message(NOT_AN_EVENT, "not a thrift event".getBytes(StandardCharsets.UTF_8)));
    GenericRecord boom = events.next();
    boom.put(0, BoomFunction.MARKER + "-1");
    out.add(message(REFUSED_BY_UDF, codec.encode(boom)));
    return out;
  }

  private static KafkaRecord<byte[], byte[]> message(long sequence, byte[] value) {
    RecordHeaders headers = new RecordHeaders();
    EventHeaders.write(headers, PRODUCER, sequence, 1_000L + sequence);
    return new KafkaRecord<>("events", 0, sequence, 0L, KafkaTimestampType.CREATE_TIME, headers, KV.of(null, value));
  }
}
