package io.streamlab.pipeline.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Why a restarted ingestion moves its committed offsets back before it reads: the keyed write
 * methods hold rows in GroupIntoBatches' state across checkpoints (that is what lets a batch wait
 * for the triggering frequency), and KafkaIO commits the offsets of a completed checkpoint. A
 * killed ingestion is restarted as a new Flink job that does not inherit that state, so rows that
 * sat in it were read (their offsets committed) but never written. The state can hold at most
 * {@code keys x batch rows} rows, so moving every partition back by that many messages re-reads
 * each of them (a message holds at least one event): STORAGE_WRITE_API ignores the copies already
 * written (insert-or-ignore on the event identity), the at-least-once STREAMING_INSERTS writes them
 * again (counted as duplicates). The first start of an ingestion has no committed offsets and is
 * not moved. Applied by whoever runs the pipeline, right before it runs ({@code streamlab ingest}):
 * building a pipeline never contacts the broker.
 */
public final class RestartRewind {
  private RestartRewind() {}

  /** Most rows the write stage's keyed state can hold; 0 when it holds none across bundles. */
  public static long bufferedRowsBound(WriteSettings w, int appendBatchSize) {
    if (!w.buffersAcrossBundles()) return 0;
    // auto-sharding: keys are shard numbers below AutoShards.MAX
    long keys = switch (w.method()) {
      case STREAMING_INSERTS -> w.autoSharding() ? AutoShards.MAX : w.numStreamingKeys();
      case STORAGE_WRITE_API -> w.autoSharding() || w.numStorageWriteApiStreams() == 0 ? AutoShards.MAX
          : w.numStorageWriteApiStreams();
      case STORAGE_API_AT_LEAST_ONCE -> 0;
    };
    long rowsPerBatch = w.method() == WriteMethod.STREAMING_INSERTS ? w.maxStreamingRowsToBatch() : appendBatchSize;
    return keys * rowsPerBatch;
  }

  /**
   * Moves the group's committed offsets of {@code topic} back by {@code messages} per partition.
   *
   * @return the partitions moved, with their new offsets (empty on a first start)
   */
  public static Map<Integer, Long> apply(String bootstrapServers, String topic, String group, long messages) {
    if (messages <= 0) return new HashMap<>();
    try (Consumer<byte[], byte[]> c = consumer(bootstrapServers, group, null)) {
      return apply(c, topic, messages);
    }
  }

  /**
   * A consumer of {@code group} that only reads and commits offsets (no auto-commit), answering
   * within {@code timeout} (null: Kafka's default).
   */
  public static Consumer<byte[], byte[]> consumer(String bootstrapServers, String group, java.time.Duration timeout) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    if (timeout != null) {
      int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
      p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
      p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
    }
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** The same with {@code c}, a consumer of the ingestion's group (see {@link #consumer}). */
  public static Map<Integer, Long> apply(Consumer<byte[], byte[]> c, String topic, long messages) {
    Map<Integer, Long> moved = new HashMap<>();
    if (messages <= 0) return moved;
    List<org.apache.kafka.common.PartitionInfo> infos = c.partitionsFor(topic);
    if (infos == null || infos.isEmpty()) return moved;
    List<TopicPartition> partitions = infos.stream()
        .map(i -> new TopicPartition(topic, i.partition())).collect(Collectors.toList());
    Map<TopicPartition, OffsetAndMetadata> committed = c.committed(Set.copyOf(partitions));
    Map<TopicPartition, OffsetAndMetadata> back = new HashMap<>();
    committed.forEach((tp, om) -> {
      if (om == null || om.offset() <= 0) return;
      long offset = Math.max(0, om.offset() - messages);
      back.put(tp, new OffsetAndMetadata(offset));
      moved.put(tp.partition(), offset);
    });
    if (!back.isEmpty()) c.commitSync(back);
    if (!moved.isEmpty()) {
      System.err.printf("[streamlab] restart: committed offsets of %s moved back by up to %,d messages (rows the "
          + "killed ingestion held in its write stage's state are read again): %s%n", topic, messages, moved);
    }
    return moved;
  }
}
