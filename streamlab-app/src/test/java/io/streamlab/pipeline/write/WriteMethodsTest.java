package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.IngestPipeline;
import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.KafkaBroker;
import io.streamlab.store.postgres.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every write method into every store that runs here (DuckDB file, PostgreSQL), end to end:
 * embedded Kafka -> Beam (DirectRunner, small) -> table; and every formatToStore writing the same
 * field values.
 */
class WriteMethodsTest {
  private static final int EVENTS = 2_000;
  private static final Schema SCHEMA = SchemaLoader.loadDefault();
  @TempDir static Path dir;
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  private static String pgUrl;
  private static Map<Integer, Long> sent;

  @BeforeAll
  static void setUp() throws Exception {
    sent = kafka.generatedTopic("events", 2, SCHEMA, 3, EVENTS);
    pgUrl = TestPostgres.freshSchemaUrl("sl_write");
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestPostgres.drop(pgUrl);
  }

  @ParameterizedTest(name = "{0} into {1}")
  @CsvSource({
      "STREAMING_INSERTS, duckdb", "STORAGE_WRITE_API, duckdb", "STORAGE_API_AT_LEAST_ONCE, duckdb",
      "STREAMING_INSERTS, postgres", "STORAGE_WRITE_API, postgres", "STORAGE_API_AT_LEAST_ONCE, postgres"})
  void writeMethodLosesNothing(WriteMethod method, String storeName) throws Exception {
    StoreSpec store = storeName.equals("duckdb") ? StoreSpec.duckdb(dir.resolve("methods.duckdb"))
        : StoreSpec.postgres(pgUrl, null);
    WriteSettings w = WriteSettings.of(method, FormatToStore.AVRO_GENERIC_RECORD);
    if (method == WriteMethod.STORAGE_API_AT_LEAST_ONCE && storeName.equals("postgres")) {
      w = new WriteSettings(method, w.formatToStore(), 50, false, 500, 64 * 1024, 0, 1.0, true, 2, 2_000);
    }
    String table = "t_" + method.name().toLowerCase();
    long shuffledBefore = IngestMetrics.get().bytesShuffled();
    Verification v = ingest(store, table, w);
    long shuffled = IngestMetrics.get().bytesShuffled() - shuffledBefore;

    assertEquals(EVENTS, v.expected());
    assertEquals(0, v.lost(), "lost rows");
    assertEquals(0, v.unexpected(), "unexpected rows");
    assertEquals(0, v.failed(), "dead-lettered rows");
    if (method.exactlyOnce()) assertEquals(0, v.duplicated(), "duplicated rows");
    if (method == WriteMethod.STORAGE_API_AT_LEAST_ONCE) assertEquals(0, shuffled, "no shuffle, no shuffled bytes");
    else assertTrue(shuffled > EVENTS * 500L, "every row passes the shuffle: " + shuffled + " bytes");
  }

  /**
   * STORAGE_WRITE_API without a triggering frequency (BigQueryIO's untriggered path): no shuffle, and
   * still exactly-once: the whole topic read a second time into the same table adds nothing.
   */
  @ParameterizedTest(name = "untriggered into {0}")
  @CsvSource({"duckdb", "postgres"})
  void untriggeredStorageWriteIsExactlyOnceWithoutAShuffle(String storeName) throws Exception {
    StoreSpec store = storeName.equals("duckdb") ? StoreSpec.duckdb(dir.resolve("untriggered.duckdb"))
        : StoreSpec.postgres(pgUrl, null);
    WriteSettings w = new WriteSettings(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD, 50, false, 500,
        64 * 1024, 0, 0, false, 2, 2_000);
    assertFalse(w.triggered());
    long shuffledBefore = IngestMetrics.get().bytesShuffled();
    Verification first = ingest(store, "t_untriggered", w);
    assertEquals(0, IngestMetrics.get().bytesShuffled() - shuffledBefore, "no shuffle, no shuffled bytes");
    assertEquals(0, first.lost(), "lost rows");
    assertEquals(0, first.duplicated(), "duplicated rows");
    // the same table through a store spelled differently: another consumer group, so every event is read again
    StoreSpec sameStore = storeName.equals("duckdb") ? StoreSpec.duckdb(dir.resolve("again/../untriggered.duckdb"))
        : StoreSpec.postgres(pgUrl + "&ApplicationName=replay", null);
    java.nio.file.Files.createDirectories(dir.resolve("again"));
    Verification again = ingest(sameStore, "t_untriggered", w);
    assertEquals(EVENTS, again.rows(), "the replay added no row");
    assertEquals(0, again.lost(), "lost rows after the replay");
    assertEquals(0, again.duplicated(), "duplicated rows after the replay");
  }

  @Test
  void everyFormatToStoreWritesTheSameFieldValues() throws Exception {
    StoreSpec store = StoreSpec.duckdb(dir.resolve("formats.duckdb"));
    for (FormatToStore f : FormatToStore.values()) {
      if (f == FormatToStore.STORE_ROW) continue; // PostgreSQL's rows: storeRowsWriteWhatTableRecordsWrite
      Verification v = ingest(store, "f_" + f.name().toLowerCase(), WriteSettings.of(WriteMethod.STORAGE_WRITE_API, f));
      assertEquals(0, v.lost(), f + ": lost rows");
      assertEquals(0, v.duplicated(), f + ": duplicated rows");
    }
    try (TableStore s = store.open(); Connection c = s.openQueryConnection(); Statement st = c.createStatement()) {
      for (FormatToStore f : List.of(FormatToStore.TABLE_ROW, FormatToStore.BEAM_ROW)) {
        String a = "f_avro_generic_record", b = "f_" + f.name().toLowerCase();
        assertEquals(0, differing(st, a, b), f + " wrote rows the Avro path did not");
        assertEquals(0, differing(st, b, a), "the Avro path wrote rows " + f + " did not");
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM f_table_row")) {
        rs.next();
        assertEquals(EVENTS, rs.getLong(1));
      }
    }
  }

  /**
   * STORE_ROW (COPY rows straight from the Thrift bytes) writes into PostgreSQL the rows the table
   * records write, by every write method: as the bytes it made where the rows reach the writer as
   * they left the decode (the unshuffled methods), as the records they decode into where a
   * shuffle's coder or an insert request's JSON row carries them.
   */
  @ParameterizedTest(name = "{0}, triggered every {1} s")
  @CsvSource({"STORAGE_API_AT_LEAST_ONCE, 0", "STORAGE_WRITE_API, 0", "STORAGE_WRITE_API, 1", "STREAMING_INSERTS, 0"})
  void storeRowsWriteWhatTableRecordsWrite(WriteMethod method, double triggerSec) throws Exception {
    StoreSpec store = StoreSpec.postgres(pgUrl, null);
    String prefix = "r_" + method.name().toLowerCase() + "_" + (int) triggerSec;
    for (FormatToStore f : List.of(FormatToStore.AVRO_GENERIC_RECORD, FormatToStore.STORE_ROW)) {
      Verification v = ingest(store, prefix + "_" + f.name().toLowerCase(),
          new WriteSettings(method, f, 50, false, 500, 64 * 1024, 0, triggerSec, false, 2, 2_000));
      assertEquals(EVENTS, v.expected());
      assertEquals(0, v.lost(), f + ": lost rows");
      assertEquals(0, v.failed(), f + ": dead-lettered rows");
      if (method.exactlyOnce()) assertEquals(0, v.duplicated(), f + ": duplicated rows");
    }
    String a = prefix + "_avro_generic_record", b = prefix + "_store_row";
    try (TableStore s = store.open(); Connection c = s.openQueryConnection(); Statement st = c.createStatement()) {
      String cols;
      try (ResultSet rs = st.executeQuery("SELECT string_agg(quote_ident(column_name) || CASE WHEN data_type LIKE 'json%' "
          + "THEN '::text' ELSE '' END, ', ' ORDER BY ordinal_position) FROM information_schema.columns "
          + "WHERE table_schema = current_schema() AND table_name = '" + a + "' AND column_name <> 'sl_write_time_us'")) {
        rs.next();
        cols = rs.getString(1);
      }
      for (String[] pair : new String[][] {{a, b}, {b, a}}) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT " + cols + " FROM " + pair[0]
            + " EXCEPT ALL SELECT " + cols + " FROM " + pair[1] + ") d")) {
          rs.next();
          assertEquals(0, rs.getLong(1), "rows of " + pair[0] + " that " + pair[1] + " does not hold (of " + cols + ")");
        }
      }
    }
  }

  private static long differing(Statement st, String a, String b) throws Exception {
    String cols = "* EXCLUDE (sl_write_time_us)";
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT " + cols + " FROM " + a
        + " EXCEPT ALL SELECT " + cols + " FROM " + b + ")")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static Verification ingest(StoreSpec store, String table, WriteSettings w) throws Exception {
    RunnerChoice runner = new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of());
    Pipeline p = Pipeline.create(runner.toOptions());
    IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), "events", SCHEMA, TransportFormat.THRIFT,
        store, table, 500, (long) EVENTS, Duration.ofSeconds(120), w));
    p.run().waitUntilFinish();
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      return TableVerifier.verify(c, table, sent, java.util.Set.of());
    }
  }
}
