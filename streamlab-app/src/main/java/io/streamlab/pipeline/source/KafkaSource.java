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
 * A Kafka topic through KafkaIO, its committed offsets first moved back by what the write stage
 * may have buffered (see {@link RestartRewind}).
 *
 * @param rewindMessages messages per partition to move the committed offsets back before reading (0 = none)
 * @param maxRecords stop after this many messages (null = unbounded)
 * @param maxReadTime stop reading after this long (null = unbounded)
 */
public final class KafkaSource extends Source {
  private final String bootstrapServers;
  private final String topic;
  private final String consumerGroup;
  private final long rewindMessages;
  private final Long maxRecords;
  private final Duration maxReadTime;

  public KafkaSource(String bootstrapServers, String topic, String consumerGroup, long rewindMessages, Long maxRecords,
      Duration maxReadTime) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.consumerGroup = consumerGroup;
    this.rewindMessages = rewindMessages;
    this.maxRecords = maxRecords;
    this.maxReadTime = maxReadTime;
  }

  /** The settings' topic, rewound by what their write stage may hold across bundles. */
  public static KafkaSource of(IngestSettings s) {
    return new KafkaSource(s.bootstrapServers(), s.topic(), s.consumerGroup(),
        RestartRewind.bufferedRowsBound(s.write(), s.appendBatchSize()), s.maxRecords(), s.maxReadTime());
  }

  @Override
  public PCollection<KafkaRecord<byte[], byte[]>> expand(PBegin begin) {
    // at build time, as before: the job's readers start from the committed offsets
    if (rewindMessages > 0) RestartRewind.apply(bootstrapServers, topic, consumerGroup, rewindMessages);
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
