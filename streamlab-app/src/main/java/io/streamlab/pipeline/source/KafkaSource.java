package io.streamlab.pipeline.source;

import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.write.RestartRewind;
import java.time.Duration;
import java.util.Map;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Kafka topic through KafkaIO, read from the consumer group's committed offsets (a restarted
 * keyed write moves them back before the pipeline runs: {@link RestartRewind}; building never
 * contacts the broker).
 *
 * @param maxRecords stop after this many messages (null = unbounded)
 * @param maxReadTime stop reading after this long (null = unbounded)
 */
public final class KafkaSource extends Source {
  private final String bootstrapServers;
  private final String topic;
  private final String consumerGroup;
  private final Long maxRecords;
  private final Duration maxReadTime;

  public KafkaSource(String bootstrapServers, String topic, String consumerGroup, Long maxRecords,
      Duration maxReadTime) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.consumerGroup = consumerGroup;
    this.maxRecords = maxRecords;
    this.maxReadTime = maxReadTime;
  }

  /** The settings' topic. */
  public static KafkaSource of(IngestSettings s) {
    return new KafkaSource(s.bootstrapServers(), s.topic(), s.consumerGroup(), s.maxRecords(), s.maxReadTime());
  }

  @Override
  public PCollection<KafkaRecord<byte[], byte[]>> expand(PBegin begin) {
    return begin.apply("KafkaIO", read());
  }

  private KafkaIO.Read<byte[], byte[]> read() {
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(bootstrapServers)
            .withTopic(topic)
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, consumerGroup,
                // ~1 KB events: bigger fetches keep the reader ahead of the decoder
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20))
            // offsets committed once a checkpoint completes, i.e. once every row read before it
            // is in the table (see WriteStage): a restart resumes there
            .commitOffsetsInFinalize();
    if (maxRecords != null) read = read.withMaxNumRecords(maxRecords);
    if (maxReadTime != null) read = read.withMaxReadTime(org.joda.time.Duration.millis(maxReadTime.toMillis()));
    return read;
  }
}
