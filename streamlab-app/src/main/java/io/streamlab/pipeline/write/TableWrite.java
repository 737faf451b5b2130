package io.streamlab.pipeline.write;

import io.streamlab.pipeline.RowsWithDeadLetters;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PDone;
import org.joda.time.Duration;

/**
 * The shape every write method into a DuckDB or PostgreSQL table shares: "ToStoreFormat" (the
 * element the method carries, keyed by its {@link Sharding}) -> the method's own write ->
 * "WriteDeadLetters" (the front stages' dead letters and the conversion's into {@code <table>_failed}).
 * A subclass per write method says what it carries and how it writes ({@link WriteStage#of}).
 */
abstract class TableWrite extends PTransform<RowsWithDeadLetters, PDone> {
  final WriteTarget target;
  final WriteSettings settings;
  /** The element carried from the conversion to the table writer. */
  final FormatToStore carried;

  TableWrite(WriteTarget target, WriteSettings settings, FormatToStore carried) {
    this.target = target;
    this.settings = settings;
    this.carried = carried;
  }

  /** The coder of the element carried (a shuffling method counts its bytes, {@link CountingCoder}). */
  abstract Coder<Object> elementCoder();

  /** Writes the converted elements, as the step(s) of this method. */
  abstract void write(PCollection<KV<Integer, Object>> elements);

  @Override
  public final PDone expand(RowsWithDeadLetters input) {
    // a JSON row carried whatever --formatToStore: the element is the insert request's row
    boolean jsonRows = carried == FormatToStore.TABLE_ROW && settings.formatToStore() != FormatToStore.TABLE_ROW;
    PCollectionTuple converted = input.rows().apply("ToStoreFormat",
        new ToStoreFormat(settings.formatToStore(), jsonRows, Sharding.forSettings(settings), elementCoder()));
    write(converted.get(ToStoreFormat.ELEMENTS));
    PCollectionList.of(input.deadLetters()).and(converted.get(ToStoreFormat.FAILED))
        .apply("WriteDeadLetters", new DeadLetterTable(target));
    return PDone.in(input.getPipeline());
  }

  /** The methods without a shuffle: the converted elements appended where they were read. */
  abstract static class Unshuffled extends TableWrite {
    private final String name;
    private final BatchAppendFn appender;

    Unshuffled(WriteTarget target, WriteSettings settings, String name, BatchAppendFn appender) {
      super(target, settings, settings.formatToStore());
      this.name = name;
      this.appender = appender;
    }

    @Override
    final Coder<Object> elementCoder() {
      return carried.coder(target.tableSchema());
    }

    @Override
    final void write(PCollection<KV<Integer, Object>> elements) {
      elements.apply(name, ParDo.of(appender));
    }
  }

  /** STORAGE_API_AT_LEAST_ONCE: appends in the reading stage (from a pool with --useConnectionPool). */
  static final class AtLeastOnceAppends extends Unshuffled {
    AtLeastOnceAppends(WriteTarget t, WriteSettings s) {
      super(t, s, "WriteStorageApiAtLeastOnce", Appenders.plain(t, s.formatToStore(), s));
    }
  }

  /**
   * STORAGE_WRITE_API with --triggeringFrequencySec=0 (BigQueryIO's untriggered path): each bundle
   * appended and committed where it was read, exactly-once through the identity key.
   */
  static final class UntriggeredStorageWriteApi extends Unshuffled {
    UntriggeredStorageWriteApi(WriteTarget t, WriteSettings s) {
      super(t, s, "WriteStorageWriteApi", Appenders.committedBundles(t, s.formatToStore()));
    }
  }

  /** The keyed methods: rows shuffled onto keys or streams, batched per key and written by {@link KeyedBatches}. */
  abstract static class Keyed extends TableWrite {
    private final String name;
    private final KeyedBatches batches;

    Keyed(WriteTarget target, WriteSettings settings, FormatToStore carried, String name, KeyedBatches batches) {
      super(target, settings, carried);
      this.name = name;
      this.batches = batches;
    }

    @Override
    final Coder<Object> elementCoder() {
      return new CountingCoder<>(carried.coder(target.tableSchema()));
    }

    @Override
    final void write(PCollection<KV<Integer, Object>> elements) {
      elements.apply(name, batches);
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
