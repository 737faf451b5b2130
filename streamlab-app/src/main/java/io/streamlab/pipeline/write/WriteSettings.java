package io.streamlab.pipeline.write;

import io.streamlab.store.model.WarehouseModel;
import java.io.Serializable;

/**
 * How the write stage carries and writes rows (flag names as Beam's BigQueryIO options).
 *
 * @param method the write method
 * @param formatToStore element type the write stage carries (and shuffles)
 * @param numStreamingKeys STREAMING_INSERTS: keys rows are grouped by, one request in flight each (Beam: 50)
 * @param autoSharding STREAMING_INSERTS / STORAGE_WRITE_API: shards that follow the backlog
 *     ({@link AutoShards}) instead of a fixed number of keys or streams
 * @param maxStreamingRowsToBatch STREAMING_INSERTS: most rows in one insert request (Beam: 500)
 * @param maxStreamingBatchSize STREAMING_INSERTS: most JSON bytes in one insert request (Beam: 64 KB)
 * @param numStorageWriteApiStreams STORAGE_WRITE_API: shards; 0 = auto-sharding
 * @param triggeringFrequencySec STORAGE_WRITE_API: a stream's batch is appended and committed
 *     this long after its first row (or when it is full); 0 = untriggered: no streams, no shuffle,
 *     each bundle appended and committed where it was read (BigQueryIO's untriggered path)
 * @param useConnectionPool STORAGE_API_AT_LEAST_ONCE: writers share a pool of store connections
 * @param connectionPoolSize connections in that pool (per table, per process)
 * @param checkpointIntervalMs Flink checkpoint interval; Kafka offsets are committed when a
 *     checkpoint completes, and a restarted ingestion resumes from them (0 = no checkpoints;
 *     {@link #CHECKPOINT_INTERVAL_NOT_GIVEN}: the write stage's default for its store and method,
 *     {@link WriteStage#checkpointIntervalMs})
 * @param warehouseModel the round trips every table request pays (a MODEL, see
 *     {@link WarehouseModel}); null = none, the local store answers as fast as it does
 * @param commitPerBundle STORAGE_API_AT_LEAST_ONCE and untriggered STORAGE_WRITE_API: a bundle's
 *     appends are one transaction, committed when the bundle ends (stores that can: DuckDB); rows
 *     are visible only then
 * @param holdWhileBehind STORAGE_API_AT_LEAST_ONCE and untriggered STORAGE_WRITE_API into a store whose writer can hold its appends
 *     (DuckDB): while the reader is behind, a bundle's appends are held in one transaction (see
 *     {@link BatchAppendFn.Batching#holdWhileBehind}); caught up, each append commits
 */
public record WriteSettings(
    WriteMethod method,
    FormatToStore formatToStore,
    int numStreamingKeys,
    boolean autoSharding,
    int maxStreamingRowsToBatch,
    long maxStreamingBatchSize,
    int numStorageWriteApiStreams,
    double triggeringFrequencySec,
    boolean useConnectionPool,
    int connectionPoolSize,
    long checkpointIntervalMs,
    WarehouseModel warehouseModel,
    boolean commitPerBundle,
    boolean holdWhileBehind) implements Serializable {

  /** {@code checkpointIntervalMs} not given: the write stage chooses it ({@link WriteStage#checkpointIntervalMs}). */
  public static final long CHECKPOINT_INTERVAL_NOT_GIVEN = -1;

  /** Settings without a warehouse model. */
  public WriteSettings(WriteMethod method, FormatToStore formatToStore, int numStreamingKeys, boolean autoSharding,
      int maxStreamingRowsToBatch, long maxStreamingBatchSize, int numStorageWriteApiStreams,
      double triggeringFrequencySec, boolean useConnectionPool, int connectionPoolSize, long checkpointIntervalMs) {
    this(method, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch, maxStreamingBatchSize,
        numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool, connectionPoolSize, checkpointIntervalMs,
        null, false, true);
  }

  /** The same settings with this warehouse model (null = none). */
  public WriteSettings withWarehouseModel(WarehouseModel m) {
    return new WriteSettings(method, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch,
        maxStreamingBatchSize, numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool, connectionPoolSize,
        checkpointIntervalMs, m, commitPerBundle, holdWhileBehind);
  }

  /** The same settings, committing each bundle's appends as one transaction or not. */
  public WriteSettings withCommitPerBundle(boolean commit) {
    return new WriteSettings(method, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch,
        maxStreamingBatchSize, numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool, connectionPoolSize,
        checkpointIntervalMs, warehouseModel, commit, holdWhileBehind);
  }

  /** The same settings, holding appends while the reader is behind or not. */
  public WriteSettings withHoldWhileBehind(boolean hold) {
    return new WriteSettings(method, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch,
        maxStreamingBatchSize, numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool, connectionPoolSize,
        checkpointIntervalMs, warehouseModel, commitPerBundle, hold);
  }

  /** Whether rows wait in keyed state across bundles (and checkpoints) before they are written. */
  public boolean buffersAcrossBundles() {
    return method == WriteMethod.STREAMING_INSERTS || triggered();
  }

  /**
   * STORAGE_WRITE_API with a triggering frequency: rows go through streams (a keyed grouping, the
   * shuffle) and wait for the trigger, as BigQueryIO's triggered Storage Write API path does.
   * Without one (0) the method appends each bundle where it was read, exactly-once through the
   * table's identity key, as BigQueryIO's untriggered path (unsharded writes) does.
   */
  public boolean triggered() {
    return method == WriteMethod.STORAGE_WRITE_API && triggeringFrequencySec > 0;
  }

  public WriteSettings {
    if (numStreamingKeys < 1) throw new IllegalArgumentException("--numStreamingKeys must be at least 1, got " + numStreamingKeys);
    if (maxStreamingRowsToBatch < 1) throw new IllegalArgumentException("--maxStreamingRowsToBatch must be at least 1, got " + maxStreamingRowsToBatch);
    if (maxStreamingBatchSize < 1) throw new IllegalArgumentException("--maxStreamingBatchSize must be at least 1, got " + maxStreamingBatchSize);
    if (numStorageWriteApiStreams < 0) throw new IllegalArgumentException("--numStorageWriteApiStreams must be 0 (auto) or more, got " + numStorageWriteApiStreams);
    if (!(triggeringFrequencySec >= 0)) throw new IllegalArgumentException("--triggeringFrequencySec must be 0 (untriggered) or more, got " + triggeringFrequencySec);
    if (connectionPoolSize < 1) throw new IllegalArgumentException("--connectionPoolSize must be at least 1, got " + connectionPoolSize);
    if (checkpointIntervalMs < 0 && checkpointIntervalMs != CHECKPOINT_INTERVAL_NOT_GIVEN) {
      throw new IllegalArgumentException("--checkpointIntervalMs must be 0 or more, got " + checkpointIntervalMs);
    }
    if (useConnectionPool && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      throw new IllegalArgumentException("--useConnectionPool applies to --writeMethod=STORAGE_API_AT_LEAST_ONCE only");
    }
    boolean appendsPerBundle = method == WriteMethod.STORAGE_API_AT_LEAST_ONCE
        || (method == WriteMethod.STORAGE_WRITE_API && triggeringFrequencySec == 0); // the fields are not set yet
    if (commitPerBundle && (!appendsPerBundle || useConnectionPool || warehouseModel != null)) {
      throw new IllegalArgumentException("--commitPerBundle applies to --writeMethod=STORAGE_API_AT_LEAST_ONCE and to "
          + "STORAGE_WRITE_API with --triggeringFrequencySec=0 (the methods that append where a bundle is read), "
          + "without --useConnectionPool or --warehouseModel");
    }
  }

  /** Today's behaviour: at-least-once appends from the reading stage, Avro records. */
  public static WriteSettings defaults() {
    return of(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD);
  }

  public static WriteSettings of(WriteMethod method, FormatToStore format) {
    return new WriteSettings(method, format, 50, false, 500, 64 * 1024, 0, 1.0, false, 2, CHECKPOINT_INTERVAL_NOT_GIVEN);
  }
}
