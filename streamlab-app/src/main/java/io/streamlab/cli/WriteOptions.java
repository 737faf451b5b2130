package io.streamlab.cli;

import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import java.util.List;
import picocli.CommandLine.Option;

/** How the write stage carries and writes rows (names as Beam's BigQueryIO). Shared by ingest and run. */
final class WriteOptions {
  @Option(names = "--writeMethod", defaultValue = "STORAGE_API_AT_LEAST_ONCE",
      description = "STREAMING_INSERTS (JSON rows, reshuffled, small requests; at-least-once, best-effort dedup "
          + "by insert id), STORAGE_WRITE_API (typed rows, sharded, batch commits; exactly-once, also across a "
          + "crash and restart) or STORAGE_API_AT_LEAST_ONCE (typed rows appended in the reading stage, no "
          + "shuffle). Default: ${DEFAULT-VALUE}.")
  WriteMethod writeMethod;

  @Option(names = "--formatToStore", defaultValue = "AVRO_GENERIC_RECORD",
      description = "Element type the write stage carries: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  FormatToStore formatToStore;

  @Option(names = "--numStreamingKeys", defaultValue = "50",
      description = "STREAMING_INSERTS: keys rows are reshuffled onto. Default: ${DEFAULT-VALUE}.")
  int numStreamingKeys;

  @Option(names = "--autoSharding",
      description = "STREAMING_INSERTS / STORAGE_WRITE_API: let the runner spread rows over its workers instead of "
          + "--numStreamingKeys keys / --numStorageWriteApiStreams shards. Default: off.")
  boolean autoSharding;

  @Option(names = "--maxStreamingRowsToBatch", defaultValue = "500",
      description = "STREAMING_INSERTS: most rows in one insert request. Default: ${DEFAULT-VALUE}.")
  int maxStreamingRowsToBatch;

  @Option(names = "--maxStreamingBatchSize", defaultValue = "65536",
      description = "STREAMING_INSERTS: most JSON bytes in one insert request. Default: ${DEFAULT-VALUE}.")
  long maxStreamingBatchSize;

  @Option(names = "--numStorageWriteApiStreams", defaultValue = "0",
      description = "STORAGE_WRITE_API: shards (write streams); 0 = auto-sharding. Default: ${DEFAULT-VALUE}.")
  int numStorageWriteApiStreams;

  @Option(names = "--triggeringFrequencySec", defaultValue = "1",
      description = "STORAGE_WRITE_API: a shard's batch is committed at the latest this long after its first row "
          + "(and at every bundle end / checkpoint barrier). Default: ${DEFAULT-VALUE}.")
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

  WriteSettings toSettings() {
    return new WriteSettings(writeMethod, formatToStore, numStreamingKeys, autoSharding, maxStreamingRowsToBatch,
        maxStreamingBatchSize, numStorageWriteApiStreams, triggeringFrequencySec, useConnectionPool,
        connectionPoolSize, checkpointIntervalMs);
  }

  List<String> asArgs() {
    List<String> a = new java.util.ArrayList<>(List.of("--writeMethod=" + writeMethod, "--formatToStore=" + formatToStore,
        "--numStreamingKeys=" + numStreamingKeys, "--maxStreamingRowsToBatch=" + maxStreamingRowsToBatch,
        "--maxStreamingBatchSize=" + maxStreamingBatchSize, "--numStorageWriteApiStreams=" + numStorageWriteApiStreams,
        "--triggeringFrequencySec=" + triggeringFrequencySec, "--connectionPoolSize=" + connectionPoolSize,
        "--checkpointIntervalMs=" + checkpointIntervalMs));
    if (autoSharding) a.add("--autoSharding");
    if (useConnectionPool) a.add("--useConnectionPool");
    return a;
  }
}
