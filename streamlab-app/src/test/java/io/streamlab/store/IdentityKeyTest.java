package io.streamlab.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.schema.SystemColumns;
import io.streamlab.store.postgres.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exactly-once (keyed) write into a table that exists without the identity key is refused, on
 * a DuckDB file and on PostgreSQL; a keyed table is found keyed, a plain one plain.
 */
class IdentityKeyTest {
  private static final Schema ROW = SystemColumns.tableRecordSchema(
      SchemaBuilder.record("E").fields().requiredString("s").endRecord());
  @TempDir Path dir;

  @Test
  void duckDb() throws Exception {
    assertRefusal(StoreSpec.duckdb(dir.resolve("k.duckdb")));
  }

  @Test
  void postgres() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_key");
    try {
      assertRefusal(StoreSpec.postgres(url, null));
    } finally {
      TestPostgres.drop(url);
    }
  }

  private static void assertRefusal(StoreSpec spec) throws Exception {
    try (TableStore store = spec.open()) {
      store.createTableIfMissing("plain", ROW, false);
      store.createTableIfMissing("keyed", ROW, true);
      try (Connection c = store.openQueryConnection()) {
        assertFalse(IdentityKey.present(c, "plain"));
        assertTrue(IdentityKey.present(c, "keyed"));
        assertFalse(IdentityKey.tableExists(c, "absent"));
        assertDoesNotThrow(() -> IdentityKey.requireIfExists(c, "absent"));
        assertDoesNotThrow(() -> IdentityKey.requireIfExists(c, "keyed"));
      }
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> store.createTableIfMissing("plain", ROW, true), "a keyed write into a plain table");
      assertTrue(e.getMessage().startsWith("table 'plain' exists without the identity key"), e.getMessage());
      assertDoesNotThrow(() -> store.createTableIfMissing("keyed", ROW, true), "again, into the keyed table");
      assertDoesNotThrow(() -> store.createTableIfMissing("plain", ROW, false), "at-least-once into a plain table");
      try (Connection c = store.openQueryConnection()) {
        assertEquals(false, IdentityKey.present(c, "plain"), "the refusal changed nothing");
      }
    }
  }
}
