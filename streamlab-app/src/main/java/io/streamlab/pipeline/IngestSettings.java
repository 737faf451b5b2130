package io.streamlab.pipeline;

import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.write.WriteSettings;
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
 * @param write how the write stage carries and writes rows
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
    Decoding decoding,
    WriteSettings write) {

  /** Settings with the default front (identity UDF) and write stage (at-least-once appends of Avro records). */
  public IngestSettings(String bootstrapServers, String topic, Schema eventSchema, TransportFormat format,
      StoreSpec store, String table, int appendBatchSize, Long maxRecords, Duration maxReadTime) {
    this(bootstrapServers, topic, eventSchema, format, store, table, appendBatchSize, maxRecords, maxReadTime,
        Decoding.DEFAULT, WriteSettings.defaults());
  }

  /** Settings with this front and the default write stage. */
  public IngestSettings(String bootstrapServers, String topic, Schema eventSchema, TransportFormat format,
      StoreSpec store, String table, int appendBatchSize, Long maxRecords, Duration maxReadTime, Decoding decoding) {
    this(bootstrapServers, topic, eventSchema, format, store, table, appendBatchSize, maxRecords, maxReadTime,
        decoding, WriteSettings.defaults());
  }

  /** Settings with the default front and this write stage. */
  public IngestSettings(String bootstrapServers, String topic, Schema eventSchema, TransportFormat format,
      StoreSpec store, String table, int appendBatchSize, Long maxRecords, Duration maxReadTime, WriteSettings write) {
    this(bootstrapServers, topic, eventSchema, format, store, table, appendBatchSize, maxRecords, maxReadTime,
        Decoding.DEFAULT, write);
  }

  /**
   * The Kafka consumer group of this ingestion: offsets are committed under it when a checkpoint
   * completes, and a restarted ingestion of the same topic into the same table of the same store
   * resumes from them (another store or table is another ingestion, reading from the start).
   */
  public String consumerGroup() {
    return consumerGroup(topic, store, table);
  }

  public static String consumerGroup(String topic, StoreSpec store, String table) {
    return "streamlab-ingest-" + topic + "-" + table + "-" + Integer.toHexString(store.toString().hashCode());
  }
}
