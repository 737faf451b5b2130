package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;

/**
 * The {@link BatchAppendFn} of each use, by name: its constructor's flags (keyed, pool size,
 * insert-id dedup) are chosen here once, so a write transform says which writer it wants.
 */
final class Appenders {
  private Appenders() {}

  /**
   * STORAGE_API_AT_LEAST_ONCE: plain appends of at most {@code appendBatchSize} rows and one
   * bundle time (from the element's path, so that a checkpoint does not cost an append of its
   * own: {@link BatchAppendFn.Batching#rowsOrRunnerBundleTime}), from a pool when asked; table
   * records in, converted to {@code format} by the writer; committed per bundle where {@code w}
   * asks, held while behind where {@link WriteStage#holdsWhileBehind} (which also set the runner's
   * bundles for it), else each append committed.
   */
  static BatchAppendFn plain(WriteTarget t, FormatToStore format, WriteSettings w) {
    BatchAppendFn.Batching batching = BatchAppendFn.Batching.rowsOrRunnerBundleTime(t.appendBatchSize());
    if (w.commitPerBundle()) batching = batching.committedPerBundle();
    else if (WriteStage.holdsWhileBehind(t.store(), w)) batching = batching.heldWhileBehind();
    return new BatchAppendFn(t.store(), t.table(), t.tableSchema(), format, new Conversion(format, false),
        batching, false,
        w.useConnectionPool() ? w.connectionPoolSize() : 0, false);
  }

  /** STREAMING_INSERTS: a request's JSON rows, skipping insert ids seen recently (best effort). */
  static BatchAppendFn insertRequests(WriteTarget t) {
    return new BatchAppendFn(t.store(), t.table(), t.tableSchema(), FormatToStore.TABLE_ROW, null,
        BatchAppendFn.Batching.rows(Integer.MAX_VALUE), false, 0, true);
  }

  /** STORAGE_WRITE_API: each batch one insert-or-ignore on the event identity (exactly-once). */
  static BatchAppendFn keyedCommits(WriteTarget t, FormatToStore format) {
    return new BatchAppendFn(t.store(), t.table(), t.tableSchema(), format, null,
        BatchAppendFn.Batching.rows(Integer.MAX_VALUE), true, 0, false);
  }

  /**
   * STORAGE_WRITE_API untriggered: each bundle's rows (at most {@code appendBatchSize} a batch) one
   * insert-or-ignore; table records in, converted to {@code format} by the writer; with
   * {@link WriteSettings#commitPerBundle} a bundle's appends are one transaction; held while behind
   * where {@link WriteStage#holdsWhileBehind}, batched then as {@link #plain}'s (since DuckDB's
   * exactly-once table has no key, a large transaction costs it less than small ones, as for
   * at-least-once; with the key it cost more, docs/perf-notes.md, "2026-11-30 noon").
   */
  static BatchAppendFn committedBundles(WriteTarget t, FormatToStore format, WriteSettings w) {
    BatchAppendFn.Batching batching = BatchAppendFn.Batching.rows(t.appendBatchSize());
    if (w.commitPerBundle()) batching = batching.committedPerBundle();
    else if (WriteStage.holdsWhileBehind(t.store(), w)) {
      batching = BatchAppendFn.Batching.rowsOrRunnerBundleTime(t.appendBatchSize()).heldWhileBehind();
    }
    return new BatchAppendFn(t.store(), t.table(), t.tableSchema(), format, new Conversion(format, false),
        batching, true, 0, false);
  }

  /** Every write method: dead letters (records) into {@code <table>_failed}. */
  static BatchAppendFn deadLetters(WriteTarget t) {
    return new BatchAppendFn(t.store(), DeadLetters.tableFor(t.table()), DeadLetters.SCHEMA,
        FormatToStore.AVRO_GENERIC_RECORD, null, BatchAppendFn.Batching.rows(500), false, 0, false);
  }
}
