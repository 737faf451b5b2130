package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import io.streamlab.store.model.WarehouseModel;
import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.ThrottleSpec;
import io.streamlab.store.throttle.Tuning;
import io.streamlab.store.throttle.WriterPool;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * STORAGE_API_AT_LEAST_ONCE's batches on the Flink runner: a batch as old as a bundle is appended
 * from the element that finds it so, inside the bundle, not left for the runner's bundle timer
 * (whose append makes a checkpoint that arrives during it cost an append of its own, see
 * {@link BatchAppendFn.Batching#rowsOrRunnerBundleTime}); on other runners only the bundle end
 * and the row bound append.
 */
class BatchAppendFnTest {
  private static final Schema TABLE = SystemColumns.tableRecordSchema(
      SchemaBuilder.record("Event").namespace("t").fields().requiredLong("id").endRecord());

  @Test
  void onFlinkABatchAsOldAsABundleIsAppendedFromTheElementPath(@TempDir Path dir) throws Exception {
    FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    flink.setRunner(FlinkRunner.class);
    flink.setMaxBundleTimeMills(200L); // long enough that no pause of a loaded machine ages row 3's batch
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    // not held: the bundles are as given (no WriteStage.configure here), so no timer of the writer's ends a batch
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD,
        settings().withHoldWhileBehind(false));
    fn.setup();
    try {
      startBundle(fn, flink);
      fn.process(row(1));
      Thread.sleep(400); // the batch is now older than the 200 ms bundle time
      fn.process(row(2));
      // the second element hands the batch over; its append runs beside the reading thread
      assertEquals(2, rowsWithin(spec, 2, 10_000), "both rows appended from the second element, before the bundle ends");
      fn.process(row(3));
      assertEquals(2, rows(spec), "a young batch waits");
      fn.finishBundle();
      assertEquals(3, rows(spec), "the bundle end appends what is left");
    } finally {
      fn.teardown();
    }
  }

  /**
   * Every ingestion's store carries the throttling decorator (the default strategy, no quota): its
   * appends must still run beside the reading thread. Until this test, they never did.
   */
  @Test
  void appendsRunBesideTheReaderUnlessTheWarehouseIsModelled(@TempDir Path dir) throws Exception {
    StoreSpec plain = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    ThrottleSpec throttling = new ThrottleSpec(Strategy.parse(ThrottleSpec.DEFAULT_STRATEGY),
        WriterPool.parse("unbounded"), Tuning.defaults(), null);
    ThrottleSpec fakeQuota = new ThrottleSpec(throttling.strategy(), throttling.pool(), throttling.tuning(),
        QuotaLimits.defaults());
    WarehouseModel model = WarehouseModel.bigquery(1, 2);
    assertEquals(true, overlaps(plain), "a bare store");
    assertEquals(true, overlaps(plain.withDecorator(throttling)), "throttling in front of a real store");
    assertEquals(false, overlaps(plain.withDecorator(fakeQuota)), "the fake quota's requests");
    assertEquals(false, overlaps(plain.withDecorator(StoreDecorator.chain(model, throttling))),
        "the warehouse model's round trips, as the write stage chains it inside the throttling");
  }

  private static boolean overlaps(StoreSpec spec) throws Exception {
    BatchAppendFn fn = plainAppends(spec);
    fn.setup();
    try {
      return fn.overlapsAppends();
    } finally {
      fn.teardown();
    }
  }

  @Test
  void elsewhereOnlyTheBundleEndAppends(@TempDir Path dir) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    BatchAppendFn fn = plainAppends(spec);
    fn.setup();
    try {
      startBundle(fn, direct);
      fn.process(row(1));
      Thread.sleep(20);
      fn.process(row(2));
      assertEquals(0, rows(spec), "no age bound off Flink");
      fn.finishBundle();
      assertEquals(2, rows(spec));
    } finally {
      fn.teardown();
    }
  }

  /** The table's rows once it holds {@code expected}, or after {@code millis} whatever it holds. */
  private static long rowsWithin(StoreSpec spec, long expected, long millis) throws Exception {
    long deadline = System.currentTimeMillis() + millis;
    long n = rows(spec);
    while (n != expected && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
      n = rows(spec);
    }
    return n;
  }

  private static BatchAppendFn plainAppends(StoreSpec spec) {
    return Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD, settings());
  }

  private static WriteSettings settings() {
    return new WriteSettings(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.AVRO_GENERIC_RECORD, 5, false, 20,
        64 * 1024, 4, 1.0, false, 2, 2_000);
  }

  @Test
  void aRecordTheWriterCannotConvertIsADeadLetterAndTheRestIsWritten(@TempDir Path dir) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    FormatToStore beamRows = FormatToStore.BEAM_ROW;
    BatchAppendFn fn = Appenders.committedBundles(new WriteTarget(spec, "t", TABLE, 50_000), beamRows, settings());
    fn.setup();
    try {
      startBundle(fn, direct);
      GenericRecord bad = row(2);
      bad.put("id", "two"); // no Beam row of this schema holds it
      fn.process(row(1));
      fn.process(bad);
      fn.process(row(3));
      fn.finishBundle();
      assertEquals(2, rows(spec), "the convertible rows");
      assertEquals(1, count(spec, "SELECT count(*) FROM t_failed WHERE stage = 'convert'"), "the other as a dead letter");
    } finally {
      fn.teardown();
    }
  }

  /**
   * --commitPerBundle, through the throttling every ingestion's store carries: a bundle's batches
   * are in the table only once the bundle ends, and a row the store refuses, in the bundle's
   * second batch, is a dead letter without taking the first batch's rows (held in the transaction
   * it aborted) or the rest of the bundle along.
   */
  @Test
  void committedPerBundleRowsAppearAtTheBundleEndAndARefusedRowLosesNoOther(@TempDir Path dir) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    Schema named = SystemColumns.tableRecordSchema(
        SchemaBuilder.record("Named").namespace("t").fields().requiredLong("id").requiredString("name").endRecord());
    ThrottleSpec throttling = new ThrottleSpec(Strategy.parse(ThrottleSpec.DEFAULT_STRATEGY),
        WriterPool.parse("unbounded"), Tuning.defaults(), null);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb")).withDecorator(throttling);
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", named, 2), FormatToStore.AVRO_GENERIC_RECORD,
        settings().withCommitPerBundle(true));
    fn.setup();
    try {
      startBundle(fn, direct);
      for (long id = 1; id <= 4; id++) fn.process(named(named, id));
      // row 4 filled the second batch, whose hand-over waited for the first batch's append
      assertEquals(0, rows(spec), "the first batch is appended, held until the bundle ends");
      fn.finishBundle();
      assertEquals(4, rows(spec));

      startBundle(fn, direct);
      for (long id = 5; id <= 9; id++) {
        GenericRecord r = named(named, id);
        if (id == 7) r.put("name", invalidUtf8());
        fn.process(r);
      }
      fn.finishBundle();
      assertEquals(8, rows(spec), "every row of the bundle but the refused one");
      assertEquals(8, count(spec, "SELECT count(DISTINCT id) FROM t"), "none twice");
      assertEquals(1, count(spec, "SELECT count(*) FROM t_failed WHERE stage = 'write'"), "the refused row");
    } finally {
      fn.teardown();
    }
  }

  @Test
  void commitPerBundleIsRefusedWhereNoWriterCanHoldABundle(@TempDir Path dir) {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new WriteSettings(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD, 5, false, 20,
            64 * 1024, 4, 1.0, false, 2, 2_000).withCommitPerBundle(true), "a triggered method's batches are not a bundle's");
    assertEquals(true, e.getMessage().contains("--commitPerBundle"), e.getMessage());
    ThrottleSpec fakeQuota = new ThrottleSpec(Strategy.parse(ThrottleSpec.DEFAULT_STRATEGY),
        WriterPool.parse("unbounded"), Tuning.defaults(), QuotaLimits.defaults());
    BatchAppendFn fn = Appenders.plain(new WriteTarget(StoreSpec.duckdb(dir.resolve("t.duckdb")).withDecorator(fakeQuota),
        "t", TABLE, 2), FormatToStore.AVRO_GENERIC_RECORD, settings().withCommitPerBundle(true));
    try {
      IllegalArgumentException setup = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, fn::setup);
      assertEquals(true, setup.getMessage().contains("cannot commit a bundle's appends as one"), setup.getMessage());
    } finally {
      try {
        fn.teardown();
      } catch (Exception ignored) {
        // what setup opened before it refused
      }
    }
  }

  /**
   * Holding while behind: rows sent seconds before their append (a reader behind) stay in the open
   * transaction; an append of fresh rows (caught up) commits everything held with it, and so does
   * the bundle's end.
   */
  @Test
  void aBehindReadersAppendsAreHeldUntilAFreshAppendOrTheBundleEnd(@TempDir Path dir) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD, settings());
    fn.setup();
    try {
      startBundle(fn, direct);
      long late = System.currentTimeMillis() * 1000 - 2 * BatchAppendFn.Batching.BEHIND_MICROS;
      fn.write(List.<Object>of(row(1, late), row(2, late)));
      assertEquals(0, rows(spec), "sent two seconds before: held");
      fn.write(List.<Object>of(row(3, System.currentTimeMillis() * 1000)));
      assertEquals(3, rows(spec), "a fresh row: committed, with the rows held before it");
      fn.write(List.<Object>of(row(4, late)));
      assertEquals(3, rows(spec), "behind again: held");
      fn.finishBundle();
      assertEquals(4, rows(spec), "the bundle's end commits");
    } finally {
      fn.teardown();
    }
    StoreSpec notHeld = StoreSpec.duckdb(dir.resolve("not-held.duckdb"));
    assertEveryAppendCommits(notHeld, settings().withHoldWhileBehind(false), "--holdWhileBehind=false");
    // the writer holds exactly where WriteStage lengthens the bundles for it: not behind a fake quota
    ThrottleSpec fakeQuota = new ThrottleSpec(Strategy.parse(ThrottleSpec.DEFAULT_STRATEGY),
        WriterPool.parse("unbounded"), Tuning.defaults(), QuotaLimits.defaults());
    StoreSpec quota = StoreSpec.duckdb(dir.resolve("quota.duckdb")).withDecorator(fakeQuota);
    assertEquals(false, WriteStage.holdsWhileBehind(quota, settings()));
    assertEveryAppendCommits(quota, settings(), "a fake quota");
  }

  /**
   * A behind reader's transaction is not committed when it reaches a row group: DuckDB writes a
   * transaction of more than a row group to the file whole, where the rest of the bundle, committed
   * by itself, would be a small transaction copied into memory and the log. Two row groups commit.
   */
  @Test
  void aBehindReadersTransactionOutgrowsARowGroupUntilTheBundleEnds(@TempDir Path dir) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    int batch = BatchAppendFn.Batching.ROW_GROUP_ROWS / 3;
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, batch), FormatToStore.AVRO_GENERIC_RECORD, settings());
    fn.setup();
    try {
      startBundle(fn, direct);
      long late = System.currentTimeMillis() * 1000 - 2 * BatchAppendFn.Batching.BEHIND_MICROS;
      long next = 0;
      for (int b = 0; b < 4; b++, next += batch) fn.write(rows(next, batch, late));
      assertEquals(0, rows(spec), "a row group and a third: held");
      for (int b = 4; b < 6; b++, next += batch) fn.write(rows(next, batch, late));
      assertEquals(BatchAppendFn.Batching.MAX_HELD_ROWS, rows(spec), "two row groups: committed");
      fn.write(rows(next, 1, late));
      assertEquals(BatchAppendFn.Batching.MAX_HELD_ROWS, rows(spec), "behind again: held");
      fn.finishBundle();
      assertEquals(BatchAppendFn.Batching.MAX_HELD_ROWS + 1, rows(spec), "the bundle's end commits");
    } finally {
      fn.teardown();
    }
  }

  private static List<Object> rows(long first, int n, long sendTimeMicros) {
    List<Object> rows = new ArrayList<>(n);
    for (long id = first; id < first + n; id++) rows.add(row(id, sendTimeMicros));
    return rows;
  }

  private static void assertEveryAppendCommits(StoreSpec spec, WriteSettings w, String where) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD, w);
    fn.setup();
    try {
      startBundle(fn, direct);
      fn.write(List.<Object>of(row(1, System.currentTimeMillis() * 1000 - 2 * BatchAppendFn.Batching.BEHIND_MICROS)));
      assertEquals(1, rows(spec), where + ": a behind reader's append commits");
      fn.finishBundle();
    } finally {
      fn.teardown();
    }
  }

  /**
   * Held while behind on Flink, the bundles outlast a batch's age ({@link WriteStage#configure}):
   * a batch whose rows stop coming is appended by the appender thread once its first row is that
   * old, the bundle still open (a reader polls again only a tick after it found nothing, so the
   * next element may come late); fresh rows are committed with it, a behind reader's are held.
   */
  @Test
  void onFlinkWithLongBundlesAnAgedBatchIsAppendedWithoutAnotherElement(@TempDir Path dir) throws Exception {
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    FlinkPipelineOptions flink = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
    flink.setRunner(FlinkRunner.class);
    flink.setMaxBundleTimeMills(50L);
    WriteStage.configure(flink, spec, settings());
    assertEquals(WriteStage.HOLDING_BUNDLE_MILLIS, flink.getMaxBundleTimeMills(), "bundles outlast the batches");
    BatchAppendFn fn = plainAppends(spec);
    fn.setup();
    try {
      startBundle(fn, flink);
      fn.process(row(1));
      fn.process(row(2));
      assertEquals(2, rowsWithin(spec, 2, 10_000), "appended and committed without another element or the bundle's end");
      fn.process(row(3, System.currentTimeMillis() * 1000 - 2 * BatchAppendFn.Batching.BEHIND_MICROS));
      Thread.sleep(500); // ten batch ages: appended by now, into the open transaction
      assertEquals(2, rows(spec), "a behind reader's row is held");
      fn.finishBundle();
      assertEquals(3, rows(spec), "the bundle's end commits it");
    } finally {
      fn.teardown();
    }
  }

  /**
   * A writer holding while behind has bundles of seconds on Flink; the rows it converts are counted
   * in the process's CONVERT stage within the bundle, not only at its end, so that the status lines
   * (the last one before a kill among them) and a measurement window's edges see them.
   */
  @Test
  void withinALongBundleTheConvertedRowsAreCountedBeforeItEnds(@TempDir Path dir) throws Exception {
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD, settings());
    fn.setup();
    try {
      startBundle(fn, direct);
      IngestMetrics.StageCounter convert = IngestMetrics.get().stage(Stage.CONVERT);
      long before = convert.snapshot().elements();
      fn.process(row(1));
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(IngestMetrics.Tally.FLUSH_NANOS) + 10);
      fn.process(row(2));
      assertEquals(2, convert.snapshot().elements() - before, "both rows counted, the bundle still open");
      fn.finishBundle();
    } finally {
      fn.teardown();
    }
  }

  /**
   * Only a refusal for the row's content makes it a dead letter. A failure around the row (here a
   * deadlock, or the task's thread interrupted, reported for every append that holds row 2) fails
   * the bundle instead, so the runner's replay writes it; as a dead letter it would be in both
   * tables after that replay.
   */
  @Test
  void onlyARefusalForTheRowsContentMakesItADeadLetter(@TempDir Path dir) throws Exception {
    assertEquals(List.of(2L, 1L), afterRowTwoFails(dir.resolve("content.duckdb"), RowTwoFails.CONTENT),
        "the other rows written, row 2 a dead letter");
    for (RowTwoFails around : List.of(RowTwoFails.DEADLOCK, RowTwoFails.INTERRUPTED)) {
      Path db = dir.resolve(around + ".duckdb");
      Exception e = assertThrows(Exception.class, () -> afterRowTwoFails(db, around), around.name());
      assertEquals(true, String.valueOf(e.getMessage()).contains("injected"), e.toString());
      assertEquals(0, count(StoreSpec.duckdb(db), "SELECT count(*) FROM information_schema.tables WHERE table_name = 't_failed'"),
          around + ": no dead letter");
    }
  }

  /** @return the rows in the table and the dead letters once a bundle of rows 1 to 3 has ended */
  private static List<Long> afterRowTwoFails(Path db, RowTwoFails failure) throws Exception {
    PipelineOptions direct = PipelineOptionsFactory.create();
    direct.setRunner(DirectRunner.class);
    StoreSpec spec = StoreSpec.duckdb(db).withDecorator(failure);
    BatchAppendFn fn = Appenders.plain(new WriteTarget(spec, "t", TABLE, 50_000), FormatToStore.AVRO_GENERIC_RECORD, settings());
    fn.setup();
    try {
      startBundle(fn, direct);
      for (long id = 1; id <= 3; id++) fn.process(row(id));
      fn.finishBundle();
    } finally {
      fn.teardown();
    }
    return List.of(rows(spec), count(spec, "SELECT count(*) FROM t_failed WHERE stage = 'write'"));
  }

  /** Fault injection on a real store: every append that holds row 2 fails so. */
  private enum RowTwoFails implements WrappedWriters {
    CONTENT, DEADLOCK, INTERRUPTED;

    Exception failure() {
      return switch (this) {
        case CONTENT -> new io.streamlab.store.RowRefusedException("injected: PostgreSQL refused a row",
            new SQLException("injected: invalid byte sequence for encoding \"UTF8\": 0xc3", "22021"));
        case DEADLOCK -> new SQLException("injected: deadlock detected", "40P01");
        case INTERRUPTED -> new java.io.IOException("injected", new java.io.InterruptedIOException("interrupted"));
      };
    }

    @Override
    public boolean modelsWarehouse() {
      return false;
    }

    @Override
    public TableWriter wrap(String table, TableWriter writer) {
      if (!table.equals("t")) return writer;
      return new TableWriter() {
        @Override
        public long append(List<GenericRecord> records) throws Exception {
          for (GenericRecord r : records) {
            if (Long.valueOf(2).equals(r.get("id"))) throw failure();
          }
          return writer.append(records);
        }

        @Override
        public boolean holdUntilCommit() throws Exception { // as the store's own decorators do
          return writer.holdUntilCommit();
        }

        @Override
        public void commitHeld() throws Exception {
          writer.commitHeld();
        }

        @Override
        public void close() throws Exception {
          writer.close();
        }
      };
    }
  }

  /** A lead byte with nothing after it: no decoder lets it through, DuckDB refuses it. */
  private static org.apache.avro.util.Utf8 invalidUtf8() {
    byte[] bad = "bad-?".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    bad[bad.length - 1] = (byte) 0xC3;
    return new org.apache.avro.util.Utf8(bad);
  }

  private static GenericRecord named(Schema schema, long id) {
    GenericData.Record r = new GenericData.Record(schema);
    r.put("id", id);
    r.put("name", "n" + id);
    r.put(SystemColumns.PRODUCER_ID, 0);
    r.put(SystemColumns.SEQUENCE, id);
    r.put(SystemColumns.SEND_TIME_MICROS, System.currentTimeMillis() * 1000);
    return r;
  }

  private static void startBundle(BatchAppendFn fn, PipelineOptions options) {
    fn.startBundle(fn.new StartBundleContext() {
      @Override
      public PipelineOptions getPipelineOptions() {
        return options;
      }
    });
  }

  private static GenericRecord row(long id) {
    return row(id, System.currentTimeMillis() * 1000);
  }

  private static GenericRecord row(long id, long sendTimeMicros) {
    GenericData.Record r = new GenericData.Record(TABLE);
    r.put("id", id);
    r.put(SystemColumns.PRODUCER_ID, 0);
    r.put(SystemColumns.SEQUENCE, id);
    r.put(SystemColumns.SEND_TIME_MICROS, sendTimeMicros);
    return r;
  }

  private static long rows(StoreSpec spec) throws Exception {
    return count(spec, "SELECT count(*) FROM t");
  }

  private static long count(StoreSpec spec, String query) throws Exception {
    try (TableStore store = spec.open();
        Connection c = store.openQueryConnection();
        ResultSet rs = c.createStatement().executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
