package io.streamlab.pipeline.source;

import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.write.RestartRewind;
import java.time.Duration;
import java.util.Map;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Kafka topic, read from the consumer group's committed offsets (a restarted keyed write moves
 * them back before the pipeline runs: {@link RestartRewind}; building never contacts the broker),
 * through KafkaIO or {@link PolledKafkaSource} ({@link KafkaReader}).
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
  private final KafkaReader reader;

  public KafkaSource(String bootstrapServers, String topic, String consumerGroup, Long maxRecords,
      Duration maxReadTime, KafkaReader reader) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.consumerGroup = consumerGroup;
    this.maxRecords = maxRecords;
    this.maxReadTime = maxReadTime;
    this.reader = reader;
  }

  /** The settings' topic, read by {@code reader}. */
  public static KafkaSource of(IngestSettings s, KafkaReader reader) {
    return new KafkaSource(s.bootstrapServers(), s.topic(), s.consumerGroup(), s.maxRecords(), s.maxReadTime(), reader);
  }

  @Override
  public PCollection<KafkaRecord<byte[], byte[]>> expand(PBegin begin) {
    return reader == KafkaReader.POLLED ? begin.apply("Polled", polled()) : begin.apply("KafkaIO", kafkaIO());
  }

  /** {@link PolledKafkaSource} under Beam's Read, bounded as KafkaIO bounds its own. */
  private PTransform<PBegin, PCollection<KafkaRecord<byte[], byte[]>>> polled() {
    Read.Unbounded<KafkaRecord<byte[], byte[]>> read = Read.from(new PolledKafkaSource(bootstrapServers, topic, consumerConfig(consumerGroup)));
    if (maxRecords == null && maxReadTime == null) return read;
    if (maxReadTime == null) return read.withMaxNumRecords(maxRecords);
    return maxRecords == null ? read.withMaxReadTime(jodaMaxReadTime()) : read.withMaxNumRecords(maxRecords).withMaxReadTime(jodaMaxReadTime());
  }

  private org.joda.time.Duration jodaMaxReadTime() {
    return org.joda.time.Duration.millis(maxReadTime.toMillis());
  }

  /** Both readers' consumer settings, beside the ones each reader sets itself. */
  static Map<String, Object> consumerConfig(String consumerGroup) {
    return Map.of(
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.GROUP_ID_CONFIG, consumerGroup,
        // ~1 KB events: bigger fetches keep KafkaIO's poll thread ahead of the decoder (the
        // polled reader, which decodes what it has just polled, takes fewer: PolledKafkaSource)
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20,
        // No client telemetry (KIP-714, on by default since kafka-clients 3.7): nothing here collects
        // it, and while on, each of the consumer's network polls took the telemetry's lock and
        // formatted a log message that was never logged.
        ConsumerConfig.ENABLE_METRICS_PUSH_CONFIG, false);
  }

  private KafkaIO.Read<byte[], byte[]> kafkaIO() {
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(bootstrapServers)
            .withTopic(topic)
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(consumerConfig(consumerGroup))
            // offsets committed once a checkpoint completes, i.e. once every row read before it
            // is in the table (see WriteStage): a restart resumes there
            .commitOffsetsInFinalize();
    if (maxRecords != null) read = read.withMaxNumRecords(maxRecords);
    if (maxReadTime != null) read = read.withMaxReadTime(jodaMaxReadTime());
    return read;
  }
}
