package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.EventHeaders;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.RowsWithDeadLetters;
import io.streamlab.pipeline.write.bigquery.BigQueryWriteStage;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The write stage's composite transforms, in memory (TestPipeline on the DirectRunner, PAssert; the
 * table a real DuckDB file): the factory picks one transform per write method; what each carries
 * and on which keys; and each writes every row and the dead letters, exactly-once ignoring a
 * replayed row that at-least-once writes again. (WriteMethodsTest, KeyedWritesTest: the same
 * through Kafka and on Flink.)
 */
class WriteStageTest {
  private static final Schema EVENT = SchemaLoader.loadDefault();
  private static final Schema TABLE = SystemColumns.tableRecordSchema(EVENT);
  private static final int ROWS = 200;
  private static final int REPLAYED = 3;
  @TempDir Path dir;

  private static WriteSettings settings(WriteMethod m, FormatToStore f) {
    return new WriteSettings(m, f, 5, false, 20, 64 * 1024, 4, 1.0, false, 2, 2_000);
  }

  @Test
  void theFactoryBuildsOneTransformPerWriteMethod() {
    WriteTarget duckdb = new WriteTarget(StoreSpec.duckdb(dir.resolve("t.duckdb")), "events", TABLE, 500);
    FormatToStore f = FormatToStore.AVRO_GENERIC_RECORD;
    assertInstanceOf(TableWrite.AtLeastOnceAppends.class,
        WriteStage.of(duckdb, settings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, f)));
    assertInstanceOf(TableWrite.StreamingInserts.class, WriteStage.of(duckdb, settings(WriteMethod.STREAMING_INSERTS, f)));
    assertInstanceOf(TableWrite.StorageWriteApi.class, WriteStage.of(duckdb, settings(WriteMethod.STORAGE_WRITE_API, f)));
    WriteSettings untriggered = new WriteSettings(WriteMethod.STORAGE_WRITE_API, f, 5, false, 20, 64 * 1024, 4, 0, false,
        2, 2_000);
    assertInstanceOf(TableWrite.UntriggeredStorageWriteApi.class, WriteStage.of(duckdb, untriggered));
    WriteTarget bigquery = new WriteTarget(StoreSpec.bigquery("p:d.events"), "events", TABLE, 500);
    for (WriteMethod m : WriteMethod.values()) {
      assertInstanceOf(BigQueryWriteStage.class, WriteStage.of(bigquery, settings(m, f)), "BigQueryIO writes " + m);
    }
  }

  @Test
  void eachMethodCarriesItsElementOnItsKeys() {
    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    PCollection<GenericRecord> rows = p.apply(Create.of(rows()).withCoder(AvroCoder.of(TABLE)));
    // STREAMING_INSERTS: the JSON row of an insert request whatever --formatToStore, on one of numStreamingKeys (5)
    PAssert.that(convert(rows, "Inserts", settings(WriteMethod.STREAMING_INSERTS, FormatToStore.BEAM_ROW), true))
        .satisfies(elements -> {
          for (KV<Integer, Object> e : elements) {
            assertTrue(e.getKey() >= 0 && e.getKey() < 5, "key " + e.getKey());
            assertInstanceOf(String.class, e.getValue());
          }
          return null;
        });
    // STORAGE_WRITE_API: the --formatToStore element, on the stream its identity says (a replay lands in the same one)
    WriteSettings storage = settings(WriteMethod.STORAGE_WRITE_API, FormatToStore.BEAM_ROW);
    Sharding streams = Sharding.forSettings(storage);
    PAssert.that(convert(rows, "Storage", storage, false)).satisfies(elements -> {
      for (KV<Integer, Object> e : elements) {
        Row r = (Row) e.getValue();
        assertEquals(streams.key(r.getInt32(SystemColumns.PRODUCER_ID), r.getInt64(SystemColumns.SEQUENCE)), e.getKey());
      }
      return null;
    });
    // the methods without a shuffle convert in their writer (BatchAppendFnTest)
    p.run().waitUntilFinish();
  }

  private static PCollection<KV<Integer, Object>> convert(PCollection<GenericRecord> rows, String name, WriteSettings w,
      boolean jsonRows) {
    FormatToStore carried = jsonRows ? FormatToStore.TABLE_ROW : w.formatToStore();
    PCollectionTuple out = rows.apply(name, new ToStoreFormat(w.formatToStore(), jsonRows, Sharding.forSettings(w),
        carried.coder(TABLE)));
    return out.get(ToStoreFormat.ELEMENTS);
  }

  /**
   * On Flink, a DuckDB writer that holds its appends while behind gets bundles long enough for a
   * row group, and keeps the bundle time asked for as its batches' age; where nothing holds (another
   * store, another write method, the flag off) the runner's options stay as given.
   */
  @Test
  void bundlesAreLongerOnlyWhereTheWriterHoldsItsAppends() {
    StoreSpec duckdb = StoreSpec.duckdb(dir.resolve("c.duckdb"));
    org.apache.beam.runners.flink.FlinkPipelineOptions held = flinkOptions();
    WriteStage.configure(held, duckdb, settings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD));
    assertEquals(WriteStage.HOLDING_BUNDLE_MILLIS, held.getMaxBundleTimeMills());
    assertEquals((long) BatchAppendFn.Batching.MAX_HELD_ROWS, held.getMaxBundleSize());
    assertEquals(50, held.as(WriterOptions.class).getAppendMaxAgeMillis(), "the batches keep the bundle time asked for");
    assertEquals(10L, held.getAutoWatermarkInterval(), "and the source's tick, which polls an idle reader again, its");
    assertEquals(50 * 1_000_000L, BatchAppendFn.maxAgeNanos(BatchAppendFn.Batching.rows(10).heldWhileBehind(), held));
    WriteStage.configure(held, duckdb, settings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD));
    assertEquals(50, held.as(WriterOptions.class).getAppendMaxAgeMillis(), "configured twice: still the time asked for");
    org.apache.beam.runners.flink.FlinkPipelineOptions untriggered = flinkOptions();
    WriteStage.configure(untriggered, duckdb, new WriteSettings(WriteMethod.STORAGE_WRITE_API,
        FormatToStore.AVRO_GENERIC_RECORD, 5, false, 20, 64 * 1024, 4, 0, false, 2, 2_000));
    assertEquals(WriteStage.HOLDING_BUNDLE_MILLIS, untriggered.getMaxBundleTimeMills(),
        "untriggered exactly-once appends in the reading stage too: held");

    for (var notHeld : List.of(
        new Object[] {StoreSpec.postgres("jdbc:postgresql://127.0.0.1:5432/test", null),
            settings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD)},
        new Object[] {duckdb, settings(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD)}, // triggered
        new Object[] {duckdb, settings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD)
            .withHoldWhileBehind(false)})) {
      org.apache.beam.runners.flink.FlinkPipelineOptions o = flinkOptions();
      WriteStage.configure(o, (StoreSpec) notHeld[0], (WriteSettings) notHeld[1]);
      assertEquals(50, o.getMaxBundleTimeMills(), java.util.Arrays.toString(notHeld));
      assertEquals(50_000, o.getMaxBundleSize());
      assertEquals(0, o.as(WriterOptions.class).getAppendMaxAgeMillis());
      assertEquals(null, o.getAutoWatermarkInterval());
    }
  }

  /**
   * Unless given, Flink checkpoints every 6 s where DuckDB's writers hold their
   * appends (each checkpoint commits the held transaction as it stands) and every 2 s elsewhere;
   * an interval given, on the command line or as Flink's own option, wins.
   */
  @Test
  void checkpointsAreLongerUnlessGivenOnlyWhereTheWriterHoldsItsAppends() {
    StoreSpec duckdb = StoreSpec.duckdb(dir.resolve("i.duckdb"));
    WriteSettings held = WriteSettings.of(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD);
    assertEquals(WriteSettings.CHECKPOINT_INTERVAL_NOT_GIVEN, held.checkpointIntervalMs());
    org.apache.beam.runners.flink.FlinkPipelineOptions o = flinkOptions();
    WriteStage.configure(o, duckdb, held);
    assertEquals(WriteStage.HOLDING_CHECKPOINT_MILLIS, o.getCheckpointingInterval());
    assertTrue(WriteStage.HOLDING_CHECKPOINT_MILLIS > WriteStage.DEFAULT_CHECKPOINT_MILLIS);

    o = flinkOptions();
    WriteStage.configure(o, duckdb, held.withHoldWhileBehind(false));
    assertEquals(WriteStage.DEFAULT_CHECKPOINT_MILLIS, o.getCheckpointingInterval(), "not held");
    o = flinkOptions();
    WriteStage.configure(o, StoreSpec.postgres("jdbc:postgresql://127.0.0.1:5432/test", null), held);
    assertEquals(WriteStage.DEFAULT_CHECKPOINT_MILLIS, o.getCheckpointingInterval(), "PostgreSQL");
    o = flinkOptions();
    WriteStage.configure(o, duckdb, WriteSettings.of(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD));
    assertEquals(WriteStage.DEFAULT_CHECKPOINT_MILLIS, o.getCheckpointingInterval(), "exactly-once, triggered");

    WriteSettings given = new WriteSettings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD,
        50, false, 500, 64 * 1024, 0, 1.0, false, 2, 3_000);
    o = flinkOptions();
    WriteStage.configure(o, duckdb, given);
    assertEquals(3_000L, o.getCheckpointingInterval(), "given on the command line");
    o = flinkOptions();
    o.setCheckpointingInterval(4_000L);
    WriteStage.configure(o, duckdb, held);
    assertEquals(4_000L, o.getCheckpointingInterval(), "given as Flink's option");
    o = flinkOptions();
    WriteStage.configure(o, duckdb, new WriteSettings(WriteMethod.STORAGE_API_AT_LEAST_ONCE,
        FormatToStore.AVRO_GENERIC_RECORD, 50, false, 500, 64 * 1024, 0, 1.0, false, 2, 0));
    assertTrue(o.getCheckpointingInterval() == null || o.getCheckpointingInterval() <= 0, "0: no checkpoints");
  }

  private static org.apache.beam.runners.flink.FlinkPipelineOptions flinkOptions() {
    var o = org.apache.beam.sdk.options.PipelineOptionsFactory.as(org.apache.beam.runners.flink.FlinkPipelineOptions.class);
    o.setRunner(org.apache.beam.runners.flink.FlinkRunner.class);
    o.setMaxBundleTimeMills(50L);
    o.setMaxBundleSize(50_000L);
    return o;
  }

  /**
   * Every row, the front stage's dead letter, and the first rows read again after a restart: a
   * second pipeline, as a restarted ingestion is, with writers of its own. (Within one pipeline
   * the direct runner may hand one key's batches to different instances of the writer, which a
   * runner never does with a key's state; an identity's second copy may then meet a writer that
   * knows nothing of the first, which no restart-free run of the product can see.)
   */
  @ParameterizedTest
  @EnumSource(WriteMethod.class)
  void eachMethodWritesEveryRowAndTheDeadLettersAsItPromises(WriteMethod method) throws Exception {
    StoreSpec store = StoreSpec.duckdb(dir.resolve(method + ".duckdb"));
    List<GenericRecord> rows = rows();
    GenericRecord letter = DeadLetters.of(DeadLetters.Stage.DECODE, new IllegalArgumentException("not an event"),
        new EventHeaders.Stamp(0, ROWS, 0), new RecordHeaders(), "garbage".getBytes(StandardCharsets.UTF_8));
    WriteSettings w = settings(method, FormatToStore.AVRO_GENERIC_RECORD);
    write(store, w, rows, List.of(letter));
    write(store, w, rows.subList(0, REPLAYED), List.of()); // read again after a restart

    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      Verification v = TableVerifier.verify(c, "events", Map.of(0, (long) ROWS + 1), Set.of());
      assertEquals(0, v.lost(), "lost");
      assertEquals(0, v.unexpected(), "unexpected");
      assertEquals(Map.of("decode", 1L), v.failedByStage(), "the front stage's dead letter in events_failed");
      switch (method) {
        case STORAGE_WRITE_API -> assertEquals(0, v.duplicatedInTable(), "exactly-once: the replayed rows ignored");
        case STORAGE_API_AT_LEAST_ONCE -> assertEquals(REPLAYED, v.duplicatedInTable(), "at-least-once: written again");
        // best-effort dedup by insert id: at most the replayed rows again
        case STREAMING_INSERTS -> assertTrue(v.duplicatedInTable() <= REPLAYED, "duplicates " + v.duplicatedInTable());
      }
    }
  }

  /** One pipeline writing {@code rows} and the front stage's {@code letters} with {@code w}, run to its end. */
  private static void write(StoreSpec store, WriteSettings w, List<GenericRecord> rows, List<GenericRecord> letters) {
    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    WriteStage.configure(p.getOptions(), store, w);
    RowsWithDeadLetters.of(
            p.apply("Rows", Create.of(rows).withCoder(AvroCoder.of(TABLE))),
            p.apply("FrontDeadLetters", Create.of(letters).withCoder(AvroCoder.of(DeadLetters.SCHEMA))))
        .apply("Write", WriteStage.of(new WriteTarget(store, "events", TABLE, 50), w));
    p.run().waitUntilFinish();
  }

  /** ROWS table records of producer 0, sequences 0..ROWS-1. */
  private static List<GenericRecord> rows() {
    RandomRecordFactory events = new RandomRecordFactory(EVENT, GeneratorSettings.builder().build(), 5);
    List<GenericRecord> out = new ArrayList<>();
    for (long seq = 0; seq < ROWS; seq++) out.add(SystemColumns.tableRecord(TABLE, events.next(), 0, seq, 1_000 + seq));
    return out;
  }
}
