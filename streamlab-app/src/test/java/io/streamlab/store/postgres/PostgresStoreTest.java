package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.AvroJson;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PostgreSQL DDL from every Avro type, binary COPY of every type, and keyed insert-or-ignore. */
class PostgresStoreTest {
  private static String url;
  private static Schema schema;
  private static List<GenericRecord> records;

  @BeforeAll
  static void setUp() throws Exception {
    url = TestPostgres.freshSchemaUrl("sl_store");
    try (InputStream in = PostgresStoreTest.class.getResourceAsStream("/all_types.avsc")) {
      schema = SystemColumns.tableRecordSchema(new Schema.Parser().parse(in));
    }
    RandomRecordFactory random = new RandomRecordFactory(schema, GeneratorSettings.builder().completeObjects(false).build(), 5);
    records = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      GenericRecord r = random.next();
      r.put(SystemColumns.PRODUCER_ID, 1);
      r.put(SystemColumns.SEQUENCE, (long) i);
      records.add(r);
    }
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestPostgres.drop(url);
  }

  @Test
  void everyAvroTypeIsWrittenAndReadBack() throws Exception {
    try (TableStore store = StoreSpec.postgres(url, null).open()) {
      store.createTableIfMissing("all_types", schema);
      try (TableWriter w = store.openWriter("all_types", schema)) {
        w.append(records);
      }
      assertReadsBack(store, "all_types", "json");
    }
  }

  /** A table made when JSON values went into jsonb columns (before json) is still appended to, as jsonb. */
  @Test
  void tablesWithTheJsonbColumnsOfEarlierVersionsStayWritable() throws Exception {
    try (TableStore store = StoreSpec.postgres(url, null).open()) {
      try (Connection c = store.openQueryConnection(); Statement st = c.createStatement()) {
        String sql = PgTypes.createTableSql("old_jsonb", schema, false);
        assertTrue(sql.contains(" json"), sql);
        st.execute(sql.replaceAll("\\bjson\\b", "jsonb"));
      }
      store.createTableIfMissing("old_jsonb", schema); // exists: left as it is
      try (TableWriter w = store.openWriter("old_jsonb", schema)) {
        w.append(records);
      }
      assertReadsBack(store, "old_jsonb", "jsonb");
    }
  }

  /** The table holds {@link #records}, every value as it was, its JSON values in columns of {@code jsonType}. */
  private static void assertReadsBack(TableStore store, String table, String jsonType) throws Exception {
    try (Connection c = store.openQueryConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT *, pg_typeof(attrs)::text AS attrs_type FROM " + table + " ORDER BY sl_sequence")) {
      ObjectMapper json = new ObjectMapper();
      for (GenericRecord r : records) {
        assertTrue(rs.next());
        assertEquals(r.get("s").toString(), rs.getString("s"));
        assertEquals(r.get("i"), rs.getInt("i"));
        assertEquals(r.get("l"), rs.getLong("l"));
        assertEquals(r.get("f"), rs.getFloat("f"));
        assertEquals(r.get("d"), rs.getDouble("d"));
        assertEquals(r.get("b"), rs.getBoolean("b"));
        assertEquals(r.get("raw"), ByteBuffer.wrap(rs.getBytes("raw")));
        assertEquals(r.get("color").toString(), rs.getString("color"));
        assertEquals(r.get("maybe") == null ? null : r.get("maybe").toString(), rs.getString("maybe"));
        assertEquals(r.get("tags").toString(), Arrays.toString((Object[]) rs.getArray("tags").getArray()));
        Array counts = rs.getArray("counts");
        assertEquals(r.get("counts").toString(), Arrays.toString((Object[]) counts.getArray()));
        // the same JSON the TABLE_ROW format carries, compared as trees (jsonb reorders keys)
        assertEquals(jsonType, rs.getString("attrs_type"));
        for (String f : List.of("attrs", "inner", "inners", "maybeInner")) {
          String expected = AvroJson.toJson(r.get(f), schema.getField(f).schema());
          String actual = rs.getString(f);
          assertEquals(json.readTree(expected), actual == null ? json.readTree("null") : json.readTree(actual), f);
        }
        assertTrue(rs.getLong(SystemColumns.WRITE_TIME_MICROS) > 0);
      }
    }
  }

  @Test
  void keyedTableKeepsOneRowPerEventHoweverOftenItIsAppended() throws Exception {
    try (TableStore store = StoreSpec.postgres(url, null).open()) {
      store.createTableIfMissing("keyed", schema, true);
      store.createTableIfMissing("plain", schema, false);
      try (TableWriter keyed = store.openWriter("keyed", schema, true);
          TableWriter plain = store.openWriter("plain", schema, false)) {
        keyed.append(records.subList(0, 200));
        keyed.append(records.subList(100, 300)); // a replay overlapping the first batch
        keyed.append(records);
        plain.append(records.subList(0, 200));
        plain.append(records.subList(100, 300));
      }
      try (Connection c = store.openQueryConnection(); Statement st = c.createStatement()) {
        assertEquals(Map.of("rows", 300L, "distinct", 300L), counts(st, "keyed"));
        assertEquals(Map.of("rows", 400L, "distinct", 300L), counts(st, "plain"));
      }
    }
  }

  /**
   * A fresh keyed batch is COPYed straight into the table; a batch holding a stored identity, or
   * the same identity twice, goes through staging and insert-or-ignore. Either way each identity
   * is stored once, and a stored row stays as it was when a later batch replays it.
   */
  @Test
  void keyedAppendsStoreEachIdentityOnceAndLeaveStoredRowsAsTheyWere() throws Exception {
    try (TableStore store = StoreSpec.postgres(url, null).open()) {
      store.createTableIfMissing("first_wins", schema, true);
      try (TableWriter keyed = store.openWriter("first_wins", schema, true)) {
        keyed.append(named(records.subList(0, 100), "first"));
        keyed.append(named(records.subList(50, 200), "replayed")); // 50-99 stored: only 100-199 are new
        List<GenericRecord> repeated = new ArrayList<>(named(records.subList(200, 250), "first"));
        repeated.addAll(named(records.subList(240, 260), "first")); // 240-249 twice in one batch (a replay within it)
        keyed.append(repeated);
        keyed.append(named(records.subList(260, 300), "first")); // fresh again after the fallbacks
      }
      try (Connection c = store.openQueryConnection(); Statement st = c.createStatement()) {
        assertEquals(Map.of("rows", 300L, "distinct", 300L), counts(st, "first_wins"));
        try (ResultSet rs = st.executeQuery("SELECT s, count(*) FROM first_wins GROUP BY s ORDER BY s")) {
          Map<String, Long> byName = new TreeMap<>();
          while (rs.next()) byName.put(rs.getString(1), rs.getLong(2));
          assertEquals(Map.of("first", 200L, "replayed", 100L), byName);
        }
      }
    }
  }

  /**
   * Each keyed batch is committed as it is appended, seen at once by another session, also the
   * batches after a replay went through staging and after a batch refused for an identity
   * collision (an event with a stored identity and another send time), of which nothing is stored.
   */
  @Test
  void aKeyedWriterCommitsEveryBatchAsItIsAppendedAlsoAfterAFallback() throws Exception {
    try (TableStore store = StoreSpec.postgres(url, null).open()) {
      store.createTableIfMissing("each_committed", schema, true);
      try (TableWriter keyed = store.openWriter("each_committed", schema, true);
          Connection c = store.openQueryConnection(); Statement st = c.createStatement()) {
        keyed.append(records.subList(0, 100));
        assertEquals(Map.of("rows", 100L, "distinct", 100L), counts(st, "each_committed"), "a fresh batch");
        keyed.append(records.subList(50, 150)); // a replay: staged, insert-or-ignore
        assertEquals(Map.of("rows", 150L, "distinct", 150L), counts(st, "each_committed"), "after a replay");
        List<GenericRecord> colliding = new ArrayList<>(records.subList(150, 160));
        for (GenericRecord r : named(records.subList(140, 150), "other")) {
          r.put(SystemColumns.SEND_TIME_MICROS, (Long) r.get(SystemColumns.SEND_TIME_MICROS) + 1);
          colliding.add(r);
        }
        assertThrows(IdentityCollisions.Found.class, () -> keyed.append(colliding));
        assertEquals(Map.of("rows", 150L, "distinct", 150L), counts(st, "each_committed"), "nothing of a refused batch");
        keyed.append(records.subList(150, 200));
        assertEquals(Map.of("rows", 200L, "distinct", 200L), counts(st, "each_committed"), "fresh again");
        keyed.append(records.subList(190, 250));
        assertEquals(Map.of("rows", 250L, "distinct", 250L), counts(st, "each_committed"), "a replay again");
      }
    }
  }

  /** Copies of {@code rows} whose string column {@code s} is {@code name} (identity and send time kept). */
  private static List<GenericRecord> named(List<GenericRecord> rows, String name) {
    List<GenericRecord> out = new ArrayList<>();
    for (GenericRecord r : rows) {
      GenericRecord copy = new GenericData.Record((GenericData.Record) r, true);
      copy.put("s", name);
      out.add(copy);
    }
    return out;
  }

  /**
   * A writing session hands its pages to the kernel as it writes them, so that a checkpoint's sync
   * has little left to flush; a value the URL's options chose stays.
   */
  @Test
  void writingSessionsFlushAsTheyWriteUnlessTheUrlChose() throws Exception {
    assertEquals("2MB", flushAfterOfAWritingSession(url));
    assertEquals("512kB", flushAfterOfAWritingSession(url + "&options=-c%20backend_flush_after%3D64"));
  }

  private static String flushAfterOfAWritingSession(String jdbcUrl) throws Exception {
    try (Connection c = new PostgresStore(jdbcUrl, null).connect(); Statement st = c.createStatement()) {
      PgCopyWriter.flushAsWritten(c);
      try (ResultSet rs = st.executeQuery("SHOW backend_flush_after")) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  @Test
  void passwordNeverTravelsInTheUrl() {
    assertThrows(IllegalArgumentException.class, () -> StoreSpec.postgres(url + "&password=secret", null));
    assertThrows(IllegalArgumentException.class, () -> StoreSpec.postgres("jdbc:mysql://x/y", null));
  }

  private static Map<String, Long> counts(Statement st, String table) throws Exception {
    try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT (sl_producer_id, sl_sequence)) FROM " + table)) {
      rs.next();
      return Map.of("rows", rs.getLong(1), "distinct", rs.getLong(2));
    }
  }
}
