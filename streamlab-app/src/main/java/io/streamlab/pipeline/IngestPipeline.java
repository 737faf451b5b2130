package io.streamlab.pipeline;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ingestion pipeline: read broker -> front stages (unbatch/decompress -> decode -> UDF, see
 * {@link FrontStages}) -> append to the table at-least-once, in the
 * reading stage (no shuffle). Failures of any stage go to {@code <table>_failed}.
 */
public final class IngestPipeline {
  private IngestPipeline() {}

  public static void build(Pipeline pipeline, IngestSettings s) {
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(s.bootstrapServers())
            .withTopic(s.topic())
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                // ~1 KB events: bigger fetches keep the reader ahead of the decoder
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20));
    if (s.maxRecords() != null) read = read.withMaxNumRecords(s.maxRecords());
    if (s.maxReadTime() != null) {
      read = read.withMaxReadTime(org.joda.time.Duration.millis(s.maxReadTime().toMillis()));
    }

    FrontStages.Output front = new FrontStages(s.eventSchema(), s.format(), s.decoding())
        .applyTo(pipeline.apply("Read", read), "UnbatchDecodeUdf");
    Schema tableSchema = FrontStages.tableSchema(s.eventSchema());
    front.rows()
        .apply("Append", ParDo.of(
            new AppendFn(s.store(), s.table(), tableSchema, s.appendBatchSize(), true)));
    front.failed()
        .apply("AppendFailed", ParDo.of(
            new AppendFn(s.store(), DeadLetters.tableFor(s.table()), DeadLetters.SCHEMA, 500, false)));
  }
}
