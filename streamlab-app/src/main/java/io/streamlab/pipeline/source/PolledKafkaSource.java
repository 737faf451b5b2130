package io.streamlab.pipeline.source;

import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka topic read by a consumer that polls on the reading thread itself, the unbounded source
 * behind {@link KafkaSource}'s {@code POLLED} reader.
 *
 * <p>Why not KafkaIO's reader: it polls on a thread of its own and hands each poll's records over
 * a queue, then builds per record a metric name, a deserialized copy and a timestamp policy's
 * context. Here the record a poll has just parsed is decoded by the same core while its bytes are
 * still in that core's caches, and a record costs one {@link KafkaRecord}. The Kafka consumer
 * keeps its own pipelining: it sends the next fetch before it returns the records of this one.
 *
 * <p>What it promises is KafkaIO's with {@code commitOffsetsInFinalize}: a split resumes from the
 * offsets of its checkpoint mark when the runner restores one, and otherwise from the consumer
 * group's committed offsets (the earliest where there are none); a mark's offsets are committed to
 * the group once the runner finalizes it, that is once every row read before it is written.
 * Timestamps are processing time, as KafkaIO's default: a record's is the time of the poll that
 * fetched it, and the watermark never passes a record not yet emitted.
 */
final class PolledKafkaSource extends UnboundedSource<KafkaRecord<byte[], byte[]>, PolledKafkaSource.Offsets> {
  private static final Logger LOG = LoggerFactory.getLogger(PolledKafkaSource.class);
  /** How long an advance() with nothing buffered waits in poll: short, since it holds the task's thread. */
  private static final Duration IDLE_POLL = Duration.ofMillis(5);
  private static final int MAX_POLL_RECORDS = 500;
  /**
   * Beam's label of each of Kafka's timestamp types, by the latter's ordinal (the two enums name the
   * same three types), as Beam's own KafkaIO reader maps them. Not by Kafka's id: the ids run one
   * below Beam's ordinals, down to -1 for a record without a timestamp (an old message format's).
   * An array, because {@code KafkaTimestampType.forOrdinal} copies the enum's values per call.
   */
  private static final KafkaTimestampType[] TIMESTAMP_TYPES = Arrays.stream(TimestampType.values())
      .map(t -> KafkaTimestampType.valueOf(t.name())).toArray(KafkaTimestampType[]::new);

  private final Map<String, Object> consumerConfig;
  private final String topic;
  /** This split's partitions; empty before {@link #split}. */
  private final List<Integer> partitions;

  /**
   * @param consumerConfig KafkaSource's consumer settings; bootstrap servers, deserializers, no
   *     auto-commit and this reader's poll size are set here
   */
  PolledKafkaSource(String bootstrapServers, String topic, Map<String, Object> consumerConfig) {
    this(withReaderSettings(bootstrapServers, consumerConfig), topic, List.of());
  }

  private PolledKafkaSource(Map<String, Object> consumerConfig, String topic, List<Integer> partitions) {
    this.consumerConfig = Map.copyOf(consumerConfig);
    this.topic = topic;
    this.partitions = List.copyOf(partitions);
  }

  private static Map<String, Object> withReaderSettings(String bootstrapServers, Map<String, Object> consumerConfig) {
    Map<String, Object> c = new HashMap<>(consumerConfig);
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    // offsets are committed only for finalized checkpoints (Reader#commitFinalized)
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // A poll parses its records (copying each value) before the first is decoded: a few hundred
    // ~1 KB records are still in the core's cache when the decode reads them, thousands are not.
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
    // as KafkaIO's consumers: a fetch response arrives in fewer reads
    c.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 512 * 1024);
    return c;
  }

  /** The topic's partitions dealt round-robin over at most {@code desiredNumSplits} splits. */
  @Override
  public List<PolledKafkaSource> split(int desiredNumSplits, PipelineOptions options) {
    List<Integer> all = new ArrayList<>();
    try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig)) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic);
      if (infos == null || infos.isEmpty()) throw new IllegalStateException("Kafka topic " + topic + " has no partitions (does it exist?)");
      for (PartitionInfo p : infos) all.add(p.partition());
    }
    Collections.sort(all);
    int n = Math.max(1, Math.min(desiredNumSplits, all.size()));
    List<List<Integer>> dealt = new ArrayList<>();
    for (int i = 0; i < n; i++) dealt.add(new ArrayList<>());
    for (int i = 0; i < all.size(); i++) dealt.get(i % n).add(all.get(i));
    List<PolledKafkaSource> splits = new ArrayList<>();
    for (List<Integer> d : dealt) splits.add(new PolledKafkaSource(consumerConfig, topic, d));
    return splits;
  }

  @Override
  public Reader createReader(PipelineOptions options, Offsets mark) {
    if (partitions.isEmpty()) throw new IllegalStateException("createReader on an unsplit " + this);
    return new Reader(this, mark);
  }

  @Override
  public Coder<Offsets> getCheckpointMarkCoder() {
    return SerializableCoder.of(Offsets.class);
  }

  @Override
  public Coder<KafkaRecord<byte[], byte[]>> getOutputCoder() {
    return Source.messageCoder();
  }

  @Override
  public String toString() {
    return "PolledKafkaSource{" + topic + partitions + "}";
  }

  /**
   * The next offset of each of a split's partitions; finalizing it commits them to the consumer
   * group, through the reader that made it (a consumer is not to be shared between threads, so
   * the reader commits on its own thread at its next advance).
   */
  static final class Offsets implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    final Map<Integer, Long> next;
    private final transient AtomicReference<Map<Integer, Long>> toCommit;

    Offsets(Map<Integer, Long> next, AtomicReference<Map<Integer, Long>> toCommit) {
      this.next = Map.copyOf(next);
      this.toCommit = toCommit;
    }

    @Override
    public void finalizeCheckpoint() {
      // a mark decoded from a checkpoint has no reader; the restored reader commits its own marks
      if (toCommit != null) toCommit.set(next);
    }

    /** A mark is its offsets (the reader's handle is not part of it): Beam's coder checks compare marks. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Offsets other && next.equals(other.next);
    }

    @Override
    public int hashCode() {
      return next.hashCode();
    }

    @Override
    public String toString() {
      return "Offsets" + next;
    }
  }

  static final class Reader extends UnboundedSource.UnboundedReader<KafkaRecord<byte[], byte[]>> {
    private final PolledKafkaSource source;
    private final Offsets restored;
    /** The next offset to read, by partition number (-1 for partitions not this split's). */
    private long[] next;
    private final AtomicReference<Map<Integer, Long>> toCommit = new AtomicReference<>();
    private Consumer<byte[], byte[]> consumer;
    private Iterator<ConsumerRecord<byte[], byte[]>> batch = Collections.emptyIterator();
    private Instant batchTime = BoundedWindow.TIMESTAMP_MIN_VALUE;
    private KafkaRecord<byte[], byte[]> current;

    Reader(PolledKafkaSource source, Offsets restored) {
      this.source = source;
      this.restored = restored;
    }

    @Override
    public boolean start() throws IOException {
      consumer = new KafkaConsumer<>(source.consumerConfig);
      List<TopicPartition> tps = new ArrayList<>();
      for (int p : source.partitions) tps.add(new TopicPartition(source.topic, p));
      consumer.assign(tps);
      // without a mark the consumer starts from the group's committed offsets (or the reset policy's)
      next = new long[Collections.max(source.partitions) + 1];
      Arrays.fill(next, -1);
      for (TopicPartition tp : tps) {
        Long offset = restored == null ? null : restored.next.get(tp.partition());
        if (offset != null) consumer.seek(tp, offset);
        next[tp.partition()] = consumer.position(tp);
      }
      LOG.info("{}: reading from {} ({})", source, offsets(), restored == null ? "the group's committed offsets" : "a checkpoint");
      return advance();
    }

    @Override
    public boolean advance() {
      commitFinalized();
      if (!batch.hasNext()) {
        var records = consumer.poll(IDLE_POLL);
        batchTime = Instant.now();
        if (records.isEmpty()) return false;
        batch = records.iterator();
      }
      ConsumerRecord<byte[], byte[]> r = batch.next();
      current = new KafkaRecord<>(r.topic(), r.partition(), r.offset(), r.timestamp(),
          timestampType(r.timestampType()), r.headers(), r.key(), r.value());
      next[r.partition()] = r.offset() + 1;
      return true;
    }

    static KafkaTimestampType timestampType(TimestampType type) {
      return TIMESTAMP_TYPES[type.ordinal()];
    }

    private void commitFinalized() {
      // called per record: a plain read, and the swap (a locked instruction) only once a mark is finalized
      if (toCommit.get() == null) return;
      Map<Integer, Long> offsets = toCommit.getAndSet(null);
      if (offsets == null || offsets.isEmpty()) return;
      Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
      offsets.forEach((p, o) -> commit.put(new TopicPartition(source.topic, p), new OffsetAndMetadata(o)));
      consumer.commitAsync(commit, (done, e) -> {
        if (e != null) LOG.warn("{}: committing {} failed (the next checkpoint commits again): {}", source, offsets, e.toString());
      });
    }

    @Override
    public KafkaRecord<byte[], byte[]> getCurrent() {
      if (current == null) throw new NoSuchElementException();
      return current;
    }

    @Override
    public Instant getCurrentTimestamp() {
      if (current == null) throw new NoSuchElementException();
      return batchTime;
    }

    /** Processing time: the poll's time while its records are still being emitted, now once they are all out. */
    @Override
    public Instant getWatermark() {
      return batch.hasNext() ? batchTime : Instant.now();
    }

    /** Before start() (a runner may checkpoint a reader it has not started) the mark is where it would start. */
    @Override
    public Offsets getCheckpointMark() {
      if (next == null) return new Offsets(restored == null ? Map.of() : restored.next, toCommit);
      return new Offsets(offsets(), toCommit);
    }

    private Map<Integer, Long> offsets() {
      Map<Integer, Long> offsets = new HashMap<>();
      for (int p : source.partitions) offsets.put(p, next[p]);
      return offsets;
    }

    @Override
    public PolledKafkaSource getCurrentSource() {
      return source;
    }

    @Override
    public void close() {
      if (consumer == null) return;
      commitFinalized(); // close() waits for the commit
      consumer.close();
    }
  }
}
