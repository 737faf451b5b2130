package io.streamlab.pipeline;

import io.streamlab.pipeline.write.WriteStage;
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
 * The ingestion pipeline: read broker -> decode -> write stage (format, shuffle and table writes
 * of the chosen write method, see WriteStage). Failures of any stage go to {@code <table>_failed}.
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

    Schema tableSchema = SystemColumns.tableRecordSchema(s.eventSchema());
    PCollectionTuple decoded =
        pipeline
            .apply("Read", read)
            .apply("Decode", ParDo.of(new DecodeFn(s.eventSchema(), s.format()))
                .withOutputTags(DecodeFn.ROWS, TupleTagList.of(DecodeFn.FAILED)));
    WriteStage.apply(decoded.get(DecodeFn.ROWS).setCoder(AvroCoder.of(tableSchema)), decoded.get(DecodeFn.FAILED),
        tableSchema, s.store(), s.table(), s.appendBatchSize(), s.write());
  }
}
