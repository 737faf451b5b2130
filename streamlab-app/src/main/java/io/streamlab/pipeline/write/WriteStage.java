package io.streamlab.pipeline.write;

import io.streamlab.pipeline.RowsWithDeadLetters;
import io.streamlab.pipeline.write.bigquery.BigQueryWriteStage;
import io.streamlab.pipeline.write.bigquery.BigQueryWrites;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.model.WarehouseModel;
import io.streamlab.store.bigquery.BigQueryTable;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PDone;
import org.joda.time.Duration;

/**
 * The write stage, one composite transform per write method ({@link #of}, a factory):
 * table records -> {@code formatToStore} elements -> the shuffle of the write method -> batched
 * appends into the table store; dead letters of every stage into {@code <table>_failed}
 * ({@link TableWrite}). With {@code --store=bigquery} Beam's BigQueryIO is the write stage instead
 * (see {@link BigQueryWriteStage}).
 *
 * <pre>
 * STREAMING_INSERTS          ToStoreFormat(JSON row, random key of numStreamingKeys) -> GroupIntoBatches -> insert requests, one in flight per key   (TableWrite.StreamingInserts)
 * STORAGE_WRITE_API          ToStoreFormat(element, stream of the event)             -> GroupIntoBatches -> append + commit (insert-or-ignore) per batch  (TableWrite.StorageWriteApi)
 *   triggeringFrequencySec=0 element, converted in the writer                                             -> append + commit (insert-or-ignore) per bundle, in the reading stage  (TableWrite.UntriggeredStorageWriteApi)
 * STORAGE_API_AT_LEAST_ONCE  element, converted in the writer                                             -> appends, in the reading stage   (TableWrite.AtLeastOnceAppends)
 * </pre>
 * GroupIntoBatches is a keyed grouping: a key (or, with auto-sharding, a shard of
 * {@code withShardedKey()}) is owned by one worker at a time, its batches hold at most the request
 * bounds, and a batch waits at most its maximum buffering duration (STORAGE_WRITE_API: the
 * triggering frequency) for more rows. This is how BigQueryIO batches its auto-sharded streaming
 * inserts and its Storage Write API appends. With a warehouse model (a MODEL of BigQuery's round
 * trips, see {@link WarehouseModel}) every request pays a round trip, so the write throughput
 * follows the number of keys in flight.
 *
 * <p>Why exactly-once is each (producer id, sequence) stored once (PostgreSQL: a unique key with
 * insert-or-ignore; DuckDB: the writer's anti-join, see the DuckDB store's writer), rather
 * than batch ids fixed after a checkpoint barrier (Beam's @RequiresStableInput / a commit table
 * keyed by (shard, batch id)): a killed ingestion is restarted as a <em>new</em> Flink job, which
 * does not inherit the old job's checkpointed state, so the batches it forms after a replay are
 * not the batches the dead job formed, and their ids would not match. The event's identity is
 * the same however often and in whichever batch it is replayed. Its cost, measured here:
 * PostgreSQL ~50 % for COPY into a temporary table + INSERT ... ON CONFLICT DO NOTHING; DuckDB,
 * whose key's index made large transactions dear, now checks without one. Stable input would
 * also add a checkpoint interval of latency to every row.
 */
public final class WriteStage {
  /**
   * STREAMING_INSERTS: the longest a key's rows wait for its batch to fill, as BigQueryIO's
   * {@code maxBufferingDurationMilliSec} (default 200 ms) bounds its auto-sharded inserts.
   */
  static final Duration STREAMING_INSERTS_MAX_BUFFERING = Duration.millis(200);

  private WriteStage() {}

  /**
   * The write transform of {@code w}'s write method into {@code target}: rows and the dead letters
   * of the stages before it in, nothing out. Options it needs are set by {@link #configure},
   * before the graph is built.
   */
  public static PTransform<RowsWithDeadLetters, PDone> of(WriteTarget target, WriteSettings w) {
    if (target.store().kind() == StoreSpec.Kind.BIGQUERY) { // BigQueryIO's own write stage; the table is the spec's
      return new BigQueryWriteStage(target.tableSchema(), BigQueryTable.parse(target.store().location()), w);
    }
    if (w.warehouseModel() != null) {
      target = target.withStore(target.store().withDecorator(
          StoreDecorator.chain(w.warehouseModel(), target.store().decorator())));
    }
    return switch (w.method()) {
      case STORAGE_API_AT_LEAST_ONCE -> new TableWrite.AtLeastOnceAppends(target, w);
      case STREAMING_INSERTS -> new TableWrite.StreamingInserts(target, w);
      case STORAGE_WRITE_API -> w.triggered() ? new TableWrite.StorageWriteApi(target, w)
          : new TableWrite.UntriggeredStorageWriteApi(target, w);
    };
  }

  /**
   * The runner's options this write stage needs, set before the graph is built. Flink:
   * checkpoints every {@link #checkpointIntervalMs} (KafkaIO commits its offsets when one
   * completes, which is where a restarted ingestion resumes), and bundles finished before the
   * barrier, so a completed checkpoint implies every row read before it is in the table. An
   * interval given as --beamArg=--checkpointingInterval wins. BigQuery: BigQueryIO's own options
   * ({@link BigQueryWrites#configureOptions}).
   */
  public static void configure(PipelineOptions options, StoreSpec store, WriteSettings w) {
    if (store.kind() == StoreSpec.Kind.BIGQUERY) BigQueryWrites.configureOptions(options.as(BigQueryOptions.class), w);
    if (!onFlink(options)) return;
    FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
    if (flink.getCheckpointingInterval() == null || flink.getCheckpointingInterval() <= 0) {
      long interval = checkpointIntervalMs(store, w);
      if (interval > 0) flink.setCheckpointingInterval(interval);
    }
    flink.setFinishBundleBeforeCheckpointing(true);
    if (holdsWhileBehind(store, w) && options.as(WriterOptions.class).getAppendMaxAgeMillis() <= 0) {
      // The batches keep the bundle time asked for; the bundles, which end every held
      // transaction, get long enough for a behind reader's to reach a row group.
      options.as(WriterOptions.class).setAppendMaxAgeMillis(flink.getMaxBundleTimeMills());
      if (flink.getAutoWatermarkInterval() == null) {
        // Unset, Beam's source reader ticks every max(maxBundleTimeMills / 5, 10) ms, and the tick
        // is what polls an idle reader again: with the longer bundles its rows would be read up to
        // 400 ms late. It keeps the tick of the bundle time asked for.
        flink.setAutoWatermarkInterval(Math.max(flink.getMaxBundleTimeMills() / 5, 10));
      }
      flink.setMaxBundleTimeMills(Math.max(flink.getMaxBundleTimeMills(), HOLDING_BUNDLE_MILLIS));
      flink.setMaxBundleSize(Math.max(flink.getMaxBundleSize(), (long) BatchAppendFn.Batching.MAX_HELD_ROWS));
    }
    // With checkpointing on, Flink keeps a finished source alive forever (so it can still take
    // part in checkpoints) and a bounded read (--maxRecords / --maxReadTime) would never end.
    // Kafka readers of an unbounded ingestion never finish, so this only ends bounded runs.
    if (flink.getShutdownSourcesAfterIdleMs() == null || flink.getShutdownSourcesAfterIdleMs() < 0) {
      flink.setShutdownSourcesAfterIdleMs(0L);
    }
  }
  /**
   * A bundle's length where the writer holds its appends while the reader is behind: the longest a
   * behind reader's rows wait for their commit, and the longest the last rows before a pause in
   * the input wait for their append. DuckDB writes a transaction of most of a row group far more
   * cheaply than many small ones (README, "DuckDB: one transaction per bundle"); a reader of a
   * backlog reads that many rows in a second or two. Longer held bundles were slower (README,
   * "DuckDB: held while behind").
   */
  static final long HOLDING_BUNDLE_MILLIS = 2_000;

  /** Flink's checkpoint interval unless given ({@link #checkpointIntervalMs}). */
  static final long DEFAULT_CHECKPOINT_MILLIS = 2_000;

  /**
   * The checkpoint interval unless given where the writers hold their appends while behind. A
   * checkpoint ends the bundle, so it commits the held transaction as it stands: a row group's
   * worth commits on its own, so every checkpoint costs one commit of the rows held since, short
   * of a row group, DuckDB's dear kind (the reading thread's CPU per drain fell by a third with
   * longer intervals; README, "DuckDB: held while behind"). The price: after a crash the rows of
   * up to one interval are read again (at-least-once: duplicates; exactly-once: ignored), and Kafka
   * sees the committed offsets this much later.
   */
  static final long HOLDING_CHECKPOINT_MILLIS = 6_000;

  /**
   * Flink's checkpoint interval: as given ({@code --checkpointIntervalMs}), else
   * {@link #HOLDING_CHECKPOINT_MILLIS} where the writers hold their appends while behind and
   * {@link #DEFAULT_CHECKPOINT_MILLIS} elsewhere.
   */
  static long checkpointIntervalMs(StoreSpec store, WriteSettings w) {
    if (w.checkpointIntervalMs() != WriteSettings.CHECKPOINT_INTERVAL_NOT_GIVEN) return w.checkpointIntervalMs();
    return holdsWhileBehind(store, w) ? HOLDING_CHECKPOINT_MILLIS : DEFAULT_CHECKPOINT_MILLIS;
  }

  /**
   * Whether {@code w}'s writers hold their appends while behind ({@link BatchAppendFn.Batching#holdWhileBehind}):
   * into DuckDB, the methods that append in the reading stage (STORAGE_API_AT_LEAST_ONCE, untriggered
   * STORAGE_WRITE_API).
   */
  static boolean holdsWhileBehind(StoreSpec store, WriteSettings w) {
    return w.holdWhileBehind() && !w.commitPerBundle()
        && (w.method() == WriteMethod.STORAGE_API_AT_LEAST_ONCE || (w.method() == WriteMethod.STORAGE_WRITE_API && !w.triggered()))
        && store.kind() == StoreSpec.Kind.DUCKDB
        && !w.useConnectionPool() && w.warehouseModel() == null
        && (store.decorator() == null || !store.decorator().modelsWarehouse());
  }

  /** Whether the pipeline runs on Beam's Flink runner, whose checkpoints and bundles the write stage is set for. */
  static boolean onFlink(PipelineOptions options) {
    return options.getRunner() != null && options.getRunner().getSimpleName().startsWith("Flink");
  }

}
