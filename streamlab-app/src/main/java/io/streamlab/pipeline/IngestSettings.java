package io.streamlab.pipeline;

import io.streamlab.formats.TransportFormat;
import io.streamlab.store.StoreSpec;
import java.time.Duration;
import org.apache.avro.Schema;

/**
 * What the ingestion pipeline reads, how it decodes, and where it writes.
 *
 * @param maxRecords stop after this many messages (null = unbounded); bound tests with
 *     {@code maxReadTime} too, since KafkaIO splits the count evenly over partitions
 * @param maxReadTime stop reading after this long (null = unbounded)
 * @param decoding the front stages' settings (UDF); see {@link Decoding}
 */
public record IngestSettings(
    String bootstrapServers,
    String topic,
    Schema eventSchema,
    TransportFormat format,
    StoreSpec store,
    String table,
    int appendBatchSize,
    Long maxRecords,
    Duration maxReadTime,
    Decoding decoding) {}
