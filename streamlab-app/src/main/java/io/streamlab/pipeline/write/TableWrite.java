package io.streamlab.pipeline.write;

import io.streamlab.pipeline.RowsWithDeadLetters;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PDone;
import org.joda.time.Duration;

/**
 * The shape every write method into a DuckDB or PostgreSQL table shares: the method's own write
 * (table records -> the element of {@code formatToStore} -> appends) and "WriteDeadLetters" (the
 * front stages' dead letters into {@code <table>_failed}). A subclass per write method says what
 * it carries and how it writes ({@link WriteStage#of}).
 *
 * <p>Each step that makes dead letters has a dead-letter writer of its own, rather than one writer
 * behind a Flatten of them all: Flink cannot chain a union of two inputs to either, so one writer
 * would run as a task of its own, fed over the network, and every watermark would cross to it.
 */
abstract class TableWrite extends PTransform<RowsWithDeadLetters, PDone> {
  final WriteTarget target;

  TableWrite(WriteTarget target) {
    this.target = target;
  }

  /** Writes the rows, and the dead letters of its own steps, as the step(s) of this method. */
  abstract void write(PCollection<GenericRecord> rows);

  @Override
  public final PDone expand(RowsWithDeadLetters input) {
    write(input.rows());
    input.deadLetters().apply("WriteDeadLetters", new DeadLetterTable(target));
    return PDone.in(input.getPipeline());
  }

  /**
   * The methods without a shuffle: the rows converted and appended where they were read, by one
   * step ({@link BatchAppendFn} converts them itself: a step of its own would add a runner
   * operator, and its per-element hand-off and bundle timer, for nothing to shuffle).
   */
  abstract static class Unshuffled extends TableWrite {
    private final String name;
    private final BatchAppendFn appender;

    Unshuffled(WriteTarget target, String name, BatchAppendFn appender) {
      super(target);
      this.name = name;
      this.appender = appender;
    }

    @Override
    final void write(PCollection<GenericRecord> rows) {
      rows.apply(name, ParDo.of(appender)); // dead letters too: records it cannot convert, rows the store refuses
    }
  }

  /** STORAGE_API_AT_LEAST_ONCE: appends in the reading stage (from a pool with --useConnectionPool). */
  static final class AtLeastOnceAppends extends Unshuffled {
    AtLeastOnceAppends(WriteTarget t, WriteSettings s) {
      super(t, "WriteStorageApiAtLeastOnce", Appenders.plain(t, s.formatToStore(), s));
    }
  }

  /**
   * STORAGE_WRITE_API with --triggeringFrequencySec=0 (BigQueryIO's untriggered path): each bundle
   * appended and committed where it was read, exactly-once through the identity key.
   */
  static final class UntriggeredStorageWriteApi extends Unshuffled {
    UntriggeredStorageWriteApi(WriteTarget t, WriteSettings s) {
      super(t, "WriteStorageWriteApi", Appenders.committedBundles(t, s.formatToStore(), s));
    }
  }

  /**
   * The keyed methods: "ToStoreFormat" (the element carried, keyed by the method's {@link Sharding})
   * -> rows shuffled onto keys or streams, batched per key and written by {@link KeyedBatches}.
   */
  abstract static class Keyed extends TableWrite {
    private final WriteSettings settings;
    private final String name;
    private final KeyedBatches batches;
    /** The element carried through the shuffle to the table writer. */
    private final FormatToStore carried;

    Keyed(WriteTarget target, WriteSettings settings, FormatToStore carried, String name, KeyedBatches batches) {
      super(target);
      this.settings = settings;
      this.name = name;
      this.batches = batches;
      this.carried = carried;
    }

    @Override
    final void write(PCollection<GenericRecord> rows) {
      // a JSON row carried whatever --formatToStore: the element is the insert request's row
      boolean jsonRows = carried == FormatToStore.TABLE_ROW && settings.formatToStore() != FormatToStore.TABLE_ROW;
      PCollectionTuple converted = rows.apply("ToStoreFormat", new ToStoreFormat(settings.formatToStore(), jsonRows,
          Sharding.forSettings(settings), new CountingCoder<>(carried.coder(target.tableSchema()))));
      converted.get(ToStoreFormat.ELEMENTS).apply(name, batches);
      converted.get(ToStoreFormat.FAILED).apply("WriteConversionDeadLetters", new DeadLetterTable(target));
    }
  }

  /** STREAMING_INSERTS: JSON rows on numStreamingKeys keys (or auto-shards), bounded insert requests. */
  static final class StreamingInserts extends Keyed {
    StreamingInserts(WriteTarget t, WriteSettings s) {
      super(t, s, FormatToStore.TABLE_ROW, "WriteStreamingInserts", new KeyedBatches(t.scope(), Sharding.forSettings(s),
          s.maxStreamingRowsToBatch(), s.maxStreamingBatchSize(), WriteStage.STREAMING_INSERTS_MAX_BUFFERING,
          Appenders.insertRequests(t)));
    }
  }

  /** STORAGE_WRITE_API: rows on numStorageWriteApiStreams streams, a batch committed per triggering frequency. */
  static final class StorageWriteApi extends Keyed {
    StorageWriteApi(WriteTarget t, WriteSettings s) {
      super(t, s, s.formatToStore(), "WriteStorageWriteApi", new KeyedBatches(t.scope(), Sharding.forSettings(s),
          t.appendBatchSize(), Long.MAX_VALUE, Duration.millis(Math.round(s.triggeringFrequencySec() * 1000)),
          Appenders.keyedCommits(t, s.formatToStore())));
    }
  }
}
