package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.StoreUnavailableException;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer whose connection is cut (what a PostgreSQL restart does to every connection) reports
 * the failed append as {@link StoreUnavailableException} and reconnects at the next append, keyed
 * (recreating its session's staging table) or plain. Only this test's own connections are cut
 * (pg_terminate_backend by application name), so the shared server is left alone.
 */
class PgReconnectTest {
  private String url;

  @AfterEach
  void drop() throws Exception {
    TestPostgres.drop(url);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aCutConnectionIsReportedAsUnavailableAndReopened(boolean keyed) throws Exception {
    url = TestPostgres.freshSchemaUrl("sl_reconnect");
    String app = url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
    String appUrl = url + "&ApplicationName=" + app;
    Schema schema;
    try (InputStream in = PgReconnectTest.class.getResourceAsStream("/all_types.avsc")) {
      schema = SystemColumns.tableRecordSchema(new Schema.Parser().parse(in));
    }
    List<GenericRecord> batch1 = records(schema, 0), batch2 = records(schema, 100);
    try (TableStore store = StoreSpec.postgres(appUrl, null).open()) {
      store.createTableIfMissing("t", schema, keyed);
      try (TableWriter w = store.openWriter("t", schema, keyed)) {
        w.append(batch1);
        cutConnections(app);
        Exception e = assertThrows(Exception.class, () -> w.append(batch2));
        assertTrue(StoreUnavailableException.isCause(e), "a cut connection is the store's fault: " + e);
        w.append(batch2); // reconnected
      }
      try (Connection c = store.openQueryConnection(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT sl_sequence) FROM t")) {
        rs.next();
        assertEquals(200, rs.getLong(2), "both batches are in the table");
        if (keyed) assertEquals(200, rs.getLong(1), "keyed: each row once");
      }
    }
  }

  private static List<GenericRecord> records(Schema schema, int firstSequence) {
    RandomRecordFactory random = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), firstSequence);
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      GenericRecord r = random.next();
      r.put(SystemColumns.PRODUCER_ID, 1);
      r.put(SystemColumns.SEQUENCE, (long) firstSequence + i);
      rows.add(r);
    }
    return rows;
  }

  /** Terminates this test's own sessions only (the server is shared). */
  private void cutConnections(String applicationName) throws Exception {
    try (Connection c = java.sql.DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            + "WHERE application_name = '" + applicationName + "' AND pid <> pg_backend_pid()")) {
      rs.next();
      assertTrue(rs.getLong(1) >= 1, "the writer's session was cut");
    }
  }
}
