package io.streamlab.pipeline;

import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.postgres.ThriftCopyRows;
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

  /** @throws IllegalArgumentException for formatToStore STORE_ROW where it cannot be made ({@link #checkStoreRows}) */
  public IngestSettings {
    if (write.formatToStore() == FormatToStore.STORE_ROW) checkStoreRows(store, format, decoding, eventSchema);
  }

  /**
   * STORE_ROW is PostgreSQL's COPY row, made from the Thrift bytes in one pass: only into
   * PostgreSQL, from Thrift, with no UDF (it sees records), and for a schema whose every column
   * has a one-pass form ({@link ThriftCopyRows#forEvent}).
   */
  private static void checkStoreRows(StoreSpec store, TransportFormat format, Decoding decoding, Schema eventSchema) {
    String why = null;
    if (store.kind() != StoreSpec.Kind.POSTGRES) why = "only --store=postgres takes it, not " + store.kind().name().toLowerCase();
    else if (format != TransportFormat.THRIFT) why = "it is made from Thrift, not " + format;
    else if (!decoding.udf().isIdentity()) why = "a UDF sees table records, and there are none";
    else if (ThriftCopyRows.forEvent(eventSchema, null) == null) {
      why = "the schema has a column it cannot write in one pass (a list, map, enum, fixed, i16 or byte, or a struct nested in a struct)";
    }
    if (why != null) {
      throw new IllegalArgumentException("--formatToStore=STORE_ROW (PostgreSQL COPY rows straight from Thrift): " + why
          + "; choose AVRO_GENERIC_RECORD, BEAM_ROW or TABLE_ROW");
    }
  }

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
