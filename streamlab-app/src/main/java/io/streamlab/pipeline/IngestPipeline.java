package io.streamlab.pipeline;

import io.streamlab.pipeline.write.RestartRewind;
import io.streamlab.pipeline.write.WriteStage;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ingestion pipeline: read broker -> front stages (unbatch/decompress -> decode -> UDF, see
 * {@link FrontStages}) -> write stage (format, shuffle and table writes of the chosen write
 * method, see {@link WriteStage}). Failures of any stage go to {@code <table>_failed}.
 */
public final class IngestPipeline {
  private IngestPipeline() {}

  public static void build(Pipeline pipeline, IngestSettings s) {
    long buffered = RestartRewind.bufferedRowsBound(s.write(), s.appendBatchSize());
    if (buffered > 0) RestartRewind.apply(s.bootstrapServers(), s.topic(), s.consumerGroup(), buffered);
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

    FrontStages.Output front = new FrontStages(s.eventSchema(), s.format(), s.decoding())
        .applyTo(pipeline.apply("Read", read), "UnbatchDecodeUdf");
    WriteStage.apply(front.rows(), front.failed(), FrontStages.tableSchema(s.eventSchema()), s.store(), s.table(),
        s.appendBatchSize(), s.write());
  }
}
