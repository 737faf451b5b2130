package io.streamlab.pipeline;

import io.streamlab.pipeline.source.Source;
import io.streamlab.pipeline.write.WriteStage;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ingestion pipeline: read broker ({@link Source}: Kafka by default, or Pub/Sub) -> front
 * stages (unbatch/decompress -> decode -> UDF, see {@link FrontStages}) -> write stage (format, shuffle and table writes of the chosen write
 * method, see {@link WriteStage}). Failures of any stage go to {@code <table>_failed}.
 */
public final class IngestPipeline {
  private IngestPipeline() {}

  /** The pipeline reading the settings' Kafka topic. */
  public static void build(Pipeline pipeline, IngestSettings s) {
    build(pipeline, s, kafka(s));
  }

  /** The pipeline reading {@code source} (the settings' Kafka fields are then unused). */
  public static void build(Pipeline pipeline, IngestSettings s, Source source) {
    FrontStages.Output front = new FrontStages(s.eventSchema(), s.format(), s.decoding())
        .applyTo(source.read(pipeline), "UnbatchDecodeUdf");
    WriteStage.apply(front.rows(), front.failed(), FrontStages.tableSchema(s.eventSchema()), s.store(), s.table(),
        s.appendBatchSize(), s.write());
  }

  /**
   * The settings' Kafka topic through KafkaIO, as the step "Read". A restarted keyed write first
   * moves its committed offsets back (RestartRewind), which the runner of the pipeline does
   * before it runs: building never contacts the broker.
   */
  public static Source kafka(IngestSettings s) {
    return pipeline -> pipeline.apply("Read", kafkaRead(s));
  }

  private static KafkaIO.Read<byte[], byte[]> kafkaRead(IngestSettings s) {
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(s.bootstrapServers())
            .withTopic(s.topic())
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, s.consumerGroup(),
                // ~1 KB events: bigger fetches keep the reader ahead of the decoder
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20))
            // offsets committed once a checkpoint completes, i.e. once every row read before it
            // is in the table (see WriteStage): a restart resumes there
            .commitOffsetsInFinalize();
    if (s.maxRecords() != null) read = read.withMaxNumRecords(s.maxRecords());
    if (s.maxReadTime() != null) {
      read = read.withMaxReadTime(org.joda.time.Duration.millis(s.maxReadTime().toMillis()));
    }
    return read;
  }
}
