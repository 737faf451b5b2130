package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.write.bigquery.BigQueryWriteStage;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.model.WarehouseModel;
import io.streamlab.store.bigquery.BigQueryTable;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.joda.time.Duration;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The write stage: table records -> {@code formatToStore} elements -> the shuffle of the write
 * method -> batched appends into the table store; dead letters of every stage into
 * {@code <table>_failed}. With {@code --store=bigquery} Beam's BigQueryIO is the write stage instead
 * (see {@link BigQueryWriteStage}).
 *
 * <pre>
 * STREAMING_INSERTS          ToStoreFormat(JSON row, random key of numStreamingKeys) -> GroupIntoBatches -> insert requests, one in flight per key
 * STORAGE_WRITE_API          ToStoreFormat(element, stream of the event)             -> GroupIntoBatches -> append + commit (insert-or-ignore) per batch
 *   triggeringFrequencySec=0 ToStoreFormat(element)                                                      -> append + commit (insert-or-ignore) per bundle, in the reading stage
 * STORAGE_API_AT_LEAST_ONCE  ToStoreFormat(element)                                                      -> appends, in the reading stage
 * </pre>
 * GroupIntoBatches is a keyed grouping: a key (or, with auto-sharding, a shard of
 * {@code withShardedKey()}) is owned by one worker at a time, its batches hold at most the request
 * bounds, and a batch waits at most its maximum buffering duration (STORAGE_WRITE_API: the
 * triggering frequency) for more rows. This is how BigQueryIO batches its auto-sharded streaming
 * inserts and its Storage Write API appends. With a warehouse model (a MODEL of BigQuery's round
 * trips, see {@link WarehouseModel}) every request pays a round trip, so the write throughput
 * follows the number of keys in flight.
 *
 * <p>Why exactly-once is a unique key on (producer id, sequence) with insert-or-ignore, rather
 * than batch ids fixed after a checkpoint barrier (Beam's @RequiresStableInput / a commit table
 * keyed by (shard, batch id)): a killed ingestion is restarted as a <em>new</em> Flink job, which
 * does not inherit the old job's checkpointed state, so the batches it forms after a replay are
 * not the batches the dead job formed, and their ids would not match. The event's identity is
 * the same however often and in whichever batch it is replayed. Its cost, measured here: DuckDB
 * 66 k rows/s with PRIMARY KEY + INSERT OR IGNORE vs 88-98 k plain; PostgreSQL ~50 % for COPY
 * into a temporary table + INSERT ... ON CONFLICT DO NOTHING. Stable input would also add a
 * checkpoint interval of latency to every row.
 */
public final class WriteStage {
  /**
   * STREAMING_INSERTS: the longest a key's rows wait for its batch to fill, as BigQueryIO's
   * {@code maxBufferingDurationMilliSec} (default 200 ms) bounds its auto-sharded inserts.
   */
  static final Duration STREAMING_INSERTS_MAX_BUFFERING = Duration.millis(200);

  private WriteStage() {}

  /**
   * @param rows table records from the front stages
   * @param deadLetters failures of the front stages (DeadLetters.SCHEMA records)
   */
  public static void apply(PCollection<GenericRecord> rows, PCollection<GenericRecord> deadLetters,
      Schema tableSchema, StoreSpec store, String table, int appendBatchSize, WriteSettings w) {
    configureRunner(rows.getPipeline().getOptions(), w);
    if (store.kind() == StoreSpec.Kind.BIGQUERY) { // BigQueryIO's own write stage; the table is the spec's
      BigQueryWriteStage.apply(rows, deadLetters, tableSchema, BigQueryTable.parse(store.location()), w);
      return;
    }
    if (w.warehouseModel() != null) store = store.withDecorator(StoreDecorator.chain(w.warehouseModel(), store.decorator()));
    FormatToStore format = w.formatToStore();
    boolean jsonRows = w.method() == WriteMethod.STREAMING_INSERTS;
    Sharding sharding = Sharding.forSettings(w);
    FormatToStore carried = jsonRows ? FormatToStore.TABLE_ROW : format;

    PCollectionTuple converted = rows.apply("ToStoreFormat",
        ParDo.of(new ToStoreFormatFn(format, jsonRows, sharding))
            .withOutputTags(ToStoreFormatFn.ELEMENTS, TupleTagList.of(ToStoreFormatFn.FAILED)));
    PCollection<KV<Integer, Object>> elements = converted.get(ToStoreFormatFn.ELEMENTS);
    String writeName = "Write" + camel(w.method());
    switch (w.method()) {
      case STORAGE_API_AT_LEAST_ONCE -> elements
          .setCoder(KvCoder.of(VarIntCoder.of(), carried.coder(tableSchema)))
          .apply(writeName, ParDo.of(new BatchAppendFn(store, table, tableSchema, format,
              BatchAppendFn.Batching.rows(appendBatchSize), false, w.useConnectionPool() ? w.connectionPoolSize() : 0,
              false)));
      case STREAMING_INSERTS -> KeyedBatches.write(elements.setCoder(
              KvCoder.of(VarIntCoder.of(), new CountingCoder<>(carried.coder(tableSchema)))), writeName, store + "/" + table,
          sharding,
          w.maxStreamingRowsToBatch(), w.maxStreamingBatchSize(), STREAMING_INSERTS_MAX_BUFFERING,
          new BatchAppendFn(store, table, tableSchema, FormatToStore.TABLE_ROW, BatchAppendFn.Batching.rows(Integer.MAX_VALUE),
              false, 0, true));
      case STORAGE_WRITE_API -> {
        if (!w.triggered()) { // untriggered: exactly-once appends where the bundle was read, no shuffle
          elements.setCoder(KvCoder.of(VarIntCoder.of(), carried.coder(tableSchema)))
              .apply(writeName, ParDo.of(new BatchAppendFn(store, table, tableSchema, format,
                  BatchAppendFn.Batching.rows(appendBatchSize), true, 0, false)));
        } else {
          KeyedBatches.write(elements.setCoder(
                KvCoder.of(VarIntCoder.of(), new CountingCoder<>(carried.coder(tableSchema)))), writeName, store + "/" + table,
            sharding,
            appendBatchSize, Long.MAX_VALUE, Duration.millis(Math.round(w.triggeringFrequencySec() * 1000)),
            new BatchAppendFn(store, table, tableSchema, format, BatchAppendFn.Batching.rows(Integer.MAX_VALUE), true, 0, false));
        }
      }
    }

    PCollectionList.of(deadLetters.setCoder(AvroCoder.of(DeadLetters.SCHEMA)))
        .and(converted.get(ToStoreFormatFn.FAILED).setCoder(AvroCoder.of(DeadLetters.SCHEMA)))
        .apply("AllDeadLetters", Flatten.pCollections())
        .apply("KeyDeadLetters", ParDo.of(new KeyedZero()))
        .setCoder(KvCoder.of(VarIntCoder.of(), FormatToStore.AVRO_GENERIC_RECORD.coder(DeadLetters.SCHEMA)))
        .apply("WriteDeadLetters", ParDo.of(new BatchAppendFn(store, DeadLetters.tableFor(table), DeadLetters.SCHEMA,
            FormatToStore.AVRO_GENERIC_RECORD, BatchAppendFn.Batching.rows(500), false, 0, false)));
  }

  /**
   * Flink: checkpoints every {@code checkpointIntervalMs} (KafkaIO commits its offsets when one
   * completes, which is where a restarted ingestion resumes), and bundles finished before the
   * barrier, so a completed checkpoint implies every row read before it is in the table. An
   * interval given as --beamArg=--checkpointingInterval wins.
   */
  static void configureRunner(PipelineOptions options, WriteSettings w) {
    if (!options.getRunner().getSimpleName().startsWith("Flink")) return;
    FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
    if (flink.getCheckpointingInterval() == null || flink.getCheckpointingInterval() <= 0) {
      if (w.checkpointIntervalMs() > 0) flink.setCheckpointingInterval(w.checkpointIntervalMs());
    }
    flink.setFinishBundleBeforeCheckpointing(true);
    // With checkpointing on, Flink keeps a finished source alive forever (so it can still take
    // part in checkpoints) and a bounded read (--maxRecords / --maxReadTime) would never end.
    // Kafka readers of an unbounded ingestion never finish, so this only ends bounded runs.
    if (flink.getShutdownSourcesAfterIdleMs() == null || flink.getShutdownSourcesAfterIdleMs() < 0) {
      flink.setShutdownSourcesAfterIdleMs(0L);
    }
  }

  private static String camel(WriteMethod m) {
    StringBuilder sb = new StringBuilder();
    for (String part : m.name().toLowerCase().split("_")) {
      sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return sb.toString();
  }

  private static final class KeyedZero extends org.apache.beam.sdk.transforms.DoFn<GenericRecord, KV<Integer, Object>> {
    @ProcessElement
    public void process(@Element GenericRecord r, OutputReceiver<KV<Integer, Object>> out) {
      out.output(KV.of(0, r));
    }
  }
}
