package io.streamlab.pipeline;

import io.streamlab.schema.SystemColumns;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ingestion pipeline: read broker -> decode -> append to the table at-least-once, in the
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

    Schema tableSchema = SystemColumns.tableRecordSchema(s.eventSchema());
    PCollectionTuple decoded =
        pipeline
            .apply("Read", read)
            .apply("Decode", ParDo.of(new DecodeFn(s.eventSchema(), s.format()))
                .withOutputTags(DecodeFn.ROWS, TupleTagList.of(DecodeFn.FAILED)));
    decoded.get(DecodeFn.ROWS)
        .setCoder(AvroCoder.of(tableSchema))
        .apply("Append", ParDo.of(
            new AppendFn(s.store(), s.table(), tableSchema, s.appendBatchSize(), true)));
    decoded.get(DecodeFn.FAILED)
        .setCoder(AvroCoder.of(DeadLetters.SCHEMA))
        .apply("AppendFailed", ParDo.of(
            new AppendFn(s.store(), DeadLetters.tableFor(s.table()), DeadLetters.SCHEMA, 500, false)));
  }
}
