package io.streamlab.pipeline.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.broker.Topics;
import io.streamlab.testing.KafkaBroker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PolledKafkaSource} against a real broker, reader by reader: what KafkaIO's reader promises
 * with commitOffsetsInFinalize. Splits cover every partition once; a reader restored from a
 * checkpoint mark reads on right after it; a finalized mark's offsets become the group's, where a
 * reader without a mark starts; nothing is committed before a mark is finalized.
 */
class PolledKafkaSourceTest {
  private static final int PARTITIONS = 3;
  private static final int PER_PARTITION = 700; // more than one poll's worth
  private static final PipelineOptions OPTIONS = PipelineOptionsFactory.create();
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();

  @Test
  void aMarkDecodesToAnEqualMarkWithoutItsReader() throws Exception {
    PolledKafkaSource.Offsets mark = new PolledKafkaSource.Offsets(Map.of(0, 7L, 2, 40L), new AtomicReference<>());
    // Beam checks a checkpoint mark's coder by comparing the decoded mark with the encoded one
    CoderProperties.coderDecodeEncodeEqual(source("t", "g").getCheckpointMarkCoder(), mark);
    assertEquals(mark, new PolledKafkaSource.Offsets(Map.of(0, 7L, 2, 40L), null));
    assertNotEquals(mark, new PolledKafkaSource.Offsets(Map.of(0, 7L, 2, 41L), null));
  }

  @Test
  void splitsReadEveryRecordOnceWithItsPartitionAndOffset() throws Exception {
    String topic = topicWithRecords("every");
    List<PolledKafkaSource> splits = source(topic, "g-every").split(2, OPTIONS);
    assertEquals(2, splits.size());
    Set<String> seen = new HashSet<>();
    for (PolledKafkaSource split : splits) {
      try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
        for (KafkaRecord<byte[], byte[]> rec : start(r, Integer.MAX_VALUE)) {
          assertEquals(value(rec.getPartition(), rec.getOffset()), new String(rec.getKV().getValue(), StandardCharsets.UTF_8));
          assertEquals(topic, rec.getTopic());
          assertEquals(KafkaTimestampType.CREATE_TIME, rec.getTimestampType()); // the topic's default, the producer's time
          assertTrue(seen.add(rec.getPartition() + "@" + rec.getOffset()), "read twice: " + rec.getPartition() + "@" + rec.getOffset());
        }
      }
    }
    assertEquals(PARTITIONS * PER_PARTITION, seen.size());
  }

  @Test
  void aRestoredReaderReadsOnRightAfterItsMark() throws Exception {
    String topic = topicWithRecords("restore");
    PolledKafkaSource split = source(topic, "g-restore").split(1, OPTIONS).get(0);
    List<KafkaRecord<byte[], byte[]>> before;
    PolledKafkaSource.Offsets mark;
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
      before = start(r, 1000);
      mark = roundTrip(split.getCheckpointMarkCoder(), r.getCheckpointMark());
    }
    List<KafkaRecord<byte[], byte[]>> after;
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, mark)) {
      after = start(r, Integer.MAX_VALUE);
    }
    assertEquals(PARTITIONS * PER_PARTITION, before.size() + after.size());
    Set<String> all = new HashSet<>();
    for (KafkaRecord<byte[], byte[]> rec : before) all.add(rec.getPartition() + "@" + rec.getOffset());
    for (KafkaRecord<byte[], byte[]> rec : after) {
      assertTrue(all.add(rec.getPartition() + "@" + rec.getOffset()), "read again after the mark: " + rec.getPartition() + "@" + rec.getOffset());
      assertTrue(rec.getOffset() >= mark.next.get(rec.getPartition()), "before the mark " + mark + ": " + rec.getOffset());
    }
  }

  @Test
  void onlyAFinalizedMarkIsCommittedAndAReaderWithoutAMarkStartsThere() throws Exception {
    String topic = topicWithRecords("commit");
    String group = "g-commit";
    PolledKafkaSource split = source(topic, group).split(1, OPTIONS).get(0);
    PolledKafkaSource.Offsets finalized;
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
      start(r, 600);
      finalized = r.getCheckpointMark();
      readOn(r, 400); // read past the mark: its offsets, not the reader's position, are what is committed
      assertTrue(committed(topic, group).isEmpty(), "nothing committed before a mark is finalized");
      finalized.finalizeCheckpoint();
      readOn(r, 1); // the reader commits on its own thread, at its next advance
    }
    assertEquals(finalized.next, committed(topic, group));
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
      List<KafkaRecord<byte[], byte[]>> rest = start(r, Integer.MAX_VALUE);
      long expected = 0;
      for (long next : finalized.next.values()) expected += PER_PARTITION - next;
      assertEquals(expected, rest.size());
      for (KafkaRecord<byte[], byte[]> rec : rest) assertTrue(rec.getOffset() >= finalized.next.get(rec.getPartition()));
    }
  }

  @Test
  void aMarkTakenBeforeStartResumesWhereTheReaderWouldHaveStarted() throws Exception {
    String topic = topicWithRecords("unstarted");
    PolledKafkaSource split = source(topic, "g-unstarted").split(1, OPTIONS).get(0);
    PolledKafkaSource.Offsets mark;
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
      mark = roundTrip(split.getCheckpointMarkCoder(), r.getCheckpointMark());
    }
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, mark)) {
      assertEquals(PARTITIONS * PER_PARTITION, start(r, Integer.MAX_VALUE).size());
    }
  }

  @Test
  void aMarkDecodedFromACheckpointCommitsNothingByItself() throws Exception {
    String topic = topicWithRecords("decoded");
    PolledKafkaSource split = source(topic, "g-decoded").split(1, OPTIONS).get(0);
    try (PolledKafkaSource.Reader r = split.createReader(OPTIONS, null)) {
      start(r, 10);
      roundTrip(split.getCheckpointMarkCoder(), r.getCheckpointMark()).finalizeCheckpoint();
      readOn(r, 1);
    }
    assertTrue(committed(topic, "g-decoded").isEmpty());
  }

  private static PolledKafkaSource source(String topic, String group) {
    return new PolledKafkaSource(kafka.bootstrapServers(), topic,
        Map.of(ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
  }

  @Test
  void everyKafkaTimestampTypeHasBeamsLabelOfTheSameTypeTheOneWithoutATimestampToo() {
    for (TimestampType t : TimestampType.values()) {
      KafkaTimestampType beams = PolledKafkaSource.Reader.timestampType(t);
      assertEquals(t.id, beams.id, t.name());
      assertEquals(t.name, beams.name, t.name());
    }
  }

  /** Starts the reader and reads up to {@code max} records. */
  private static List<KafkaRecord<byte[], byte[]>> start(PolledKafkaSource.Reader r, int max) throws Exception {
    return collect(r, r.start(), max);
  }

  /** Reads on, up to {@code max} records. */
  private static List<KafkaRecord<byte[], byte[]>> readOn(PolledKafkaSource.Reader r, int max) throws Exception {
    return collect(r, r.advance(), max);
  }

  /** Up to {@code max} records, the reader left on the last; stops once 100 polls in a row found nothing. */
  private static List<KafkaRecord<byte[], byte[]>> collect(PolledKafkaSource.Reader r, boolean more, int max) {
    List<KafkaRecord<byte[], byte[]>> out = new ArrayList<>();
    for (int idle = 0; idle < 100; ) {
      if (more) {
        out.add(r.getCurrent());
        idle = 0;
        if (out.size() == max) break;
      } else {
        idle++;
      }
      more = r.advance();
    }
    return out;
  }

  private static Map<Integer, Long> committed(String topic, String group) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(p)) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<Integer, Long> out = new java.util.TreeMap<>();
      offsets.forEach((tp, o) -> {
        if (tp.topic().equals(topic) && o != null) out.put(tp.partition(), o.offset());
      });
      return out;
    }
  }

  private static <T> T roundTrip(Coder<T> coder, T value) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    coder.encode(value, out);
    return coder.decode(new ByteArrayInputStream(out.toByteArray()));
  }

  private static String topicWithRecords(String name) throws Exception {
    String topic = "polled-" + name;
    Topics.create(kafka.bootstrapServers(), topic, PARTITIONS);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (int partition = 0; partition < PARTITIONS; partition++) {
        for (int offset = 0; offset < PER_PARTITION; offset++) {
          producer.send(new ProducerRecord<>(topic, partition, null, value(partition, offset).getBytes(StandardCharsets.UTF_8)));
        }
      }
      producer.flush();
    }
    return topic;
  }

  private static String value(int partition, long offset) {
    return "p" + partition + "-o" + offset;
  }
}
