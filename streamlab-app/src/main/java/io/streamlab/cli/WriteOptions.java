package io.streamlab.cli;

import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.model.WarehouseModel;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * How the write stage carries and writes rows. Shared by ingest and run. The names, types and
 * defaults that Beam's BigQueryOptions has too (numStreamingKeys, maxStreamingRowsToBatch,
 * maxStreamingBatchSize, numStorageWriteApiStreams) are its own, so one flag sets both.
 */
public interface WriteOptions extends PipelineOptions {
  @Description("STREAMING_INSERTS (JSON rows grouped per key, small requests, one in flight per key; at-least-once, "
      + "best-effort dedup by insert id), STORAGE_WRITE_API (typed rows, sharded, batch commits; exactly-once, also "
      + "across a crash and restart) or STORAGE_API_AT_LEAST_ONCE (typed rows appended in the reading stage, no "
      + "shuffle).")
  @Default.Enum("STORAGE_API_AT_LEAST_ONCE")
  WriteMethod getWriteMethod();
  void setWriteMethod(WriteMethod value);

  @Description("Element type the write stage carries: the study's TABLE_ROW (a JSON row), BEAM_ROW, "
      + "AVRO_GENERIC_RECORD; or STORE_ROW, the row as the store takes it, written by the decode in one pass "
      + "(PostgreSQL's binary COPY columns straight from the Thrift bytes: --store=postgres, Thrift, no UDF).")
  @Default.Enum("AVRO_GENERIC_RECORD")
  FormatToStore getFormatToStore();
  void setFormatToStore(FormatToStore value);

  @Description("STREAMING_INSERTS: keys rows are grouped by (GroupIntoBatches); each key has at most one insert "
      + "request in flight, so this bounds the write concurrency.")
  @Default.Integer(50)
  Integer getNumStreamingKeys();
  void setNumStreamingKeys(Integer value);

  @Description("STREAMING_INSERTS / STORAGE_WRITE_API: spread rows over shards whose number follows the write "
      + "backlog (doubling while batches leave full, shrinking while few do), as Dataflow's auto-sharding, instead "
      + "of --numStreamingKeys keys / --numStorageWriteApiStreams streams. Default: off.")
  boolean getAutoSharding();
  void setAutoSharding(boolean value);

  @Description("STREAMING_INSERTS: most rows in one insert request.")
  @Default.Long(500)
  Long getMaxStreamingRowsToBatch();
  void setMaxStreamingRowsToBatch(Long value);

  @Description("STREAMING_INSERTS: most JSON bytes in one insert request.")
  @Default.Long(64 * 1024)
  Long getMaxStreamingBatchSize();
  void setMaxStreamingBatchSize(Long value);

  @Description("STORAGE_WRITE_API: write streams (one append in flight each); 0 = auto-sharding.")
  @Default.Integer(0)
  Integer getNumStorageWriteApiStreams();
  void setNumStorageWriteApiStreams(Integer value);

  @Description("STORAGE_WRITE_API: a stream's buffered rows are appended and committed this long after the batch's "
      + "first row, or once --appendBatchSize rows wait. 0 = untriggered (BigQueryIO's unsharded path): no streams "
      + "and no shuffle, each bundle appended and committed where it was read, still exactly-once through the "
      + "table's identity key (local stores only).")
  @Default.Double(1)
  double getTriggeringFrequencySec();
  void setTriggeringFrequencySec(double value);

  @Description("STORAGE_API_AT_LEAST_ONCE: writers share --connectionPoolSize store connections per table instead "
      + "of one each. Default: off.")
  boolean getUseConnectionPool();
  void setUseConnectionPool(boolean value);

  @Description("Connections in the --useConnectionPool pool, per table and process.")
  @Default.Integer(2)
  int getConnectionPoolSize();
  void setConnectionPoolSize(int value);

  @Description("Flink checkpoint interval: Kafka offsets are committed when a checkpoint completes and a restarted "
      + "ingestion resumes from them (rows written since are read again: ignored by STORAGE_WRITE_API, duplicates "
      + "for the at-least-once methods). 0 = no checkpoints (a restart reads the topic from the start). Default: "
      + "2000; 6000 where DuckDB's writers hold their appends while behind (--holdWhileBehind): "
      + "each checkpoint commits the held transaction as it stands, and a small one costs DuckDB dearly.")
  Long getCheckpointIntervalMs();
  void setCheckpointIntervalMs(Long value);

  /** What the warehouse model stands in for. */
  enum ModelKind { none, bigquery }

  @Description("A MODEL of a remote warehouse in front of DuckDB / PostgreSQL: bigquery = every request (streaming "
      + "insert, append, commit) first waits a round trip drawn from a log-normal with --roundTripP50 / "
      + "--roundTripP95 (requests of different keys / streams overlap, at most one in flight per key or stream); "
      + "none = the local store's own speed. The seven study scenarios set bigquery.")
  @Default.Enum("none")
  ModelKind getWarehouseModel();
  void setWarehouseModel(ModelKind value);

  @Description("Warehouse model: median round trip of one request (BigQuery insertAll, see README).")
  @Default.String("75ms")
  String getRoundTripP50();
  void setRoundTripP50(String value);

  @Description("Warehouse model: 95th percentile round trip of one request.")
  @Default.String("110ms")
  String getRoundTripP95();
  void setRoundTripP95(String value);

  @Description("STORAGE_API_AT_LEAST_ONCE, or STORAGE_WRITE_API with --triggeringFrequencySec=0, into DuckDB: hold "
      + "a bundle's appends in one transaction, committed when "
      + "the bundle ends (before every checkpoint), instead of committing each append. Rows become visible only at "
      + "the commit, so latency grows by up to a bundle (--maxBundleTimeMills); in exchange DuckDB writes one large "
      + "transaction far more cheaply than many small ones, which go through its log and are compressed again by "
      + "its checkpoint: for throughput-first loads, with large bundles, e.g. --maxBundleSize=245760 "
      + "--maxBundleTimeMills=20000 --appendBatchSize=8192 (see README). Default: off.")
  boolean getCommitPerBundle();
  void setCommitPerBundle(boolean value);

  @Description("STORAGE_API_AT_LEAST_ONCE, or STORAGE_WRITE_API with --triggeringFrequencySec=0, into DuckDB: while "
      + "the reader is behind (the newest row of an append was "
      + "sent a second or more before), hold the appends in one transaction until it holds a row group (122,880 rows) "
      + "or the bundle ends; caught up, commit each append as it is made. DuckDB writes one large transaction far "
      + "more cheaply than many small ones. On Flink the bundles then last up to 2 s or the next checkpoint, so a "
      + "behind reader's rows wait up to that for their commit; --maxBundleTimeMills still bounds how long a row "
      + "waits for its append. Ignored for other stores, other write methods and with --commitPerBundle; "
      + "--holdWhileBehind=false turns it off. Default: on.")
  @Default.Boolean(true)
  boolean getHoldWhileBehind();
  void setHoldWhileBehind(boolean value);

  /**
   * Refuses --commitPerBundle where no writer could hold a bundle's appends, before anything
   * starts: inside the job it would be a task failure and a restart loop.
   */
  static void checkCommitPerBundle(WriteOptions o, StoreOptions.Store store, boolean fakeQuota) {
    if (o.getCommitPerBundle() && (store != StoreOptions.Store.duckdb || fakeQuota)) {
      throw new IllegalArgumentException("--commitPerBundle holds DuckDB's appends only (--store=duckdb, without "
          + "--fakeQuota)");
    }
  }

  static WriteSettings toSettings(WriteOptions o) {
    Long checkpoints = o.getCheckpointIntervalMs();
    if (checkpoints != null && checkpoints < 0) {
      throw new IllegalArgumentException("--checkpointIntervalMs must be 0 or more, got " + checkpoints);
    }
    WarehouseModel model = o.getWarehouseModel() == ModelKind.bigquery
        ? WarehouseModel.bigquery(TuningOptions.millis("--roundTripP50", o.getRoundTripP50()),
            TuningOptions.millis("--roundTripP95", o.getRoundTripP95()))
        : null;
    return new WriteSettings(o.getWriteMethod(), o.getFormatToStore(), o.getNumStreamingKeys(), o.getAutoSharding(),
        Math.toIntExact(o.getMaxStreamingRowsToBatch()), o.getMaxStreamingBatchSize(), o.getNumStorageWriteApiStreams(),
        o.getTriggeringFrequencySec(), o.getUseConnectionPool(), o.getConnectionPoolSize(),
        checkpoints == null ? WriteSettings.CHECKPOINT_INTERVAL_NOT_GIVEN : checkpoints,
        model, o.getCommitPerBundle(), o.getHoldWhileBehind());
  }
}
