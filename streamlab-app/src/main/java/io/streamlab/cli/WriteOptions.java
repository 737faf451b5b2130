package io.streamlab.cli;

import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.model.WarehouseModel;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** How the write stage carries and writes rows (names as Beam's BigQueryIO). Shared by ingest and run. */
final class WriteOptions {
  @Option(names = "--writeMethod", defaultValue = "STORAGE_API_AT_LEAST_ONCE",
      description = "STREAMING_INSERTS (JSON rows grouped per key, small requests, one in flight per key; at-least-once, best-effort dedup "
          + "by insert id), STORAGE_WRITE_API (typed rows, sharded, batch commits; exactly-once, also across a "
          + "crash and restart) or STORAGE_API_AT_LEAST_ONCE (typed rows appended in the reading stage, no "
          + "shuffle). Default: ${DEFAULT-VALUE}.")
  WriteMethod writeMethod;

  @Option(names = "--formatToStore", defaultValue = "AVRO_GENERIC_RECORD",
      description = "Element type the write stage carries: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  FormatToStore formatToStore;

  @Option(names = "--numStreamingKeys", defaultValue = "50",
      description = "STREAMING_INSERTS: keys rows are grouped by (GroupIntoBatches); each key has at most one insert "
          + "request in flight, so this bounds the write concurrency. Default: ${DEFAULT-VALUE}.")
  int numStreamingKeys;

  @Option(names = "--autoSharding",
      description = "STREAMING_INSERTS / STORAGE_WRITE_API: spread rows over shards whose number follows the write "
          + "backlog (doubling while batches leave full, shrinking while few do), as Dataflow's auto-sharding, instead "
          + "of --numStreamingKeys keys / --numStorageWriteApiStreams streams. Default: off.")
  boolean autoSharding;

  @Option(names = "--maxStreamingRowsToBatch", defaultValue = "500",
      description = "STREAMING_INSERTS: most rows in one insert request. Default: ${DEFAULT-VALUE}.")
  int maxStreamingRowsToBatch;

  @Option(names = "--maxStreamingBatchSize", defaultValue = "65536",
      description = "STREAMING_INSERTS: most JSON bytes in one insert request. Default: ${DEFAULT-VALUE}.")
  long maxStreamingBatchSize;

  @Option(names = "--numStorageWriteApiStreams", defaultValue = "0",
      description = "STORAGE_WRITE_API: write streams (one append in flight each); 0 = auto-sharding. "
          + "Default: ${DEFAULT-VALUE}.")
  int numStorageWriteApiStreams;

  @Option(names = "--triggeringFrequencySec", defaultValue = "1",
      description = "STORAGE_WRITE_API: a stream's buffered rows are appended and committed this long after the "
          + "batch's first row, or once --appendBatchSize rows wait. 0 = untriggered (BigQueryIO's unsharded path): "
          + "no streams and no shuffle, each bundle appended and committed where it was read, still exactly-once "
          + "through the table's identity key (local stores only). Default: ${DEFAULT-VALUE}.")
  double triggeringFrequencySec;

  @Option(names = "--useConnectionPool",
      description = "STORAGE_API_AT_LEAST_ONCE: writers share --connectionPoolSize store connections per table "
          + "instead of one each. Default: off.")
  boolean useConnectionPool;

  @Option(names = "--connectionPoolSize", defaultValue = "2",
      description = "Connections in the --useConnectionPool pool, per table and process. Default: ${DEFAULT-VALUE}.")
  int connectionPoolSize;

  @Option(names = "--checkpointIntervalMs", defaultValue = "2000",
      description = "Flink checkpoint interval: Kafka offsets are committed when a checkpoint completes and a "
          + "restarted ingestion resumes from them (rows written since are read again: ignored by "
          + "STORAGE_WRITE_API, duplicates for the at-least-once methods). 0 = no checkpoints (a restart "
          + "reads the topic from the start). Default: ${DEFAULT-VALUE}.")
  long checkpointIntervalMs;

  /** What the warehouse model stands in for. */
  enum ModelKind { none, bigquery }

  @Option(names = "--warehouseModel", defaultValue = "none",
      description = "A MODEL of a remote warehouse in front of DuckDB / PostgreSQL: bigquery = every request (streaming "
          + "insert, append, commit) first waits a round trip drawn from a log-normal with --roundTripP50 / "
          + "--roundTripP95 (requests of different keys / streams overlap, at most one in flight per key or stream); "
          + "none = the local store's own speed. The seven study scenarios set bigquery. Default: ${DEFAULT-VALUE}.")
  ModelKind warehouseModel;

  @Option(names = "--roundTripP50", defaultValue = "75ms", converter = DurationConverter.class,
      description = "Warehouse model: median round trip of one request (BigQuery insertAll, see README). "
          + "Default: ${DEFAULT-VALUE}.")
  Duration roundTripP50;

  @Option(names = "--roundTripP95", defaultValue = "110ms", converter = DurationConverter.class,
      description = "Warehouse model: 95th percentile round trip of one request. Default: ${DEFAULT-VALUE}.")
  Duration roundTripP95;

  WriteSettings toSettings() {
    WarehouseModel model = warehouseModel == ModelKind.bigquery
        ? WarehouseModel.bigquery(roundTripP50.toNanos() / 1e6, roundTripP95.toNanos() / 1e6) : null;
    return new WriteSettings(writeMethod, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch,
        maxStreamingBatchSize, numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool,
        connectionPoolSize, checkpointIntervalMs, model);
  }

  List<String> asArgs() {
    List<String> a = new java.util.ArrayList<>(List.of("--writeMethod=" + writeMethod, "--formatToStore=" + formatToStore,
        "--numStreamingKeys=" + numStreamingKeys, "--maxStreamingRowsToBatch=" + maxStreamingRowsToBatch,
        "--maxStreamingBatchSize=" + maxStreamingBatchSize, "--numStorageWriteApiStreams=" + numStorageWriteApiStreams,
        "--triggeringFrequencySec=" + triggeringFrequencySec, "--connectionPoolSize=" + connectionPoolSize,
        "--checkpointIntervalMs=" + checkpointIntervalMs, "--warehouseModel=" + warehouseModel,
        "--roundTripP50=" + roundTripP50.toMillis() + "ms",
        "--roundTripP95=" + roundTripP95.toMillis() + "ms"));
    if (autoSharding) a.add("--autoSharding");
    if (useConnectionPool) a.add("--useConnectionPool");
    return a;
  }
}
