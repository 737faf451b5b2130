package io.streamlab.store.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SystemColumns;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.RandomSchemas;
import io.streamlab.testing.TestValues;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Avro type a schema file can give (example schemas and random ones, nullable, nested,
 * in arrays and maps) becomes a DuckDB column that holds the value: append through the Arrow
 * path, read back over JDBC, compare.
 */
class DuckDbColumnTypesTest {
  @TempDir Path dir;

  @Test
  void exampleAndRandomSchemasStoreEqualValues() throws Exception {
    List<Schema> schemas = new ArrayList<>();
    for (String name : ExampleSchemas.ALL) schemas.add(ExampleSchemas.load(name));
    for (long seed = 0; seed < 60; seed++) schemas.add(RandomSchemas.generate(seed));
    GeneratorSettings settings = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3)
        .minStringLength(0).maxStringLength(12).build();
    try (DuckDbStore store = new DuckDbStore(dir.resolve("types.duckdb"))) {
      for (int t = 0; t < schemas.size(); t++) {
        Schema event = schemas.get(t);
        Schema row = SystemColumns.tableRecordSchema(event);
        String table = "t" + t;
        RandomRecordFactory f = new RandomRecordFactory(event, settings, t);
        List<GenericRecord> rows = new ArrayList<>();
        List<Object> want = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          GenericRecord e = f.next();
          want.add(TestValues.normalize(e));
          GenericData.Record r = new GenericData.Record(row);
          for (Schema.Field field : event.getFields()) r.put(field.pos(), e.get(field.pos()));
          r.put(SystemColumns.PRODUCER_ID, 1);
          r.put(SystemColumns.SEQUENCE, (long) i);
          r.put(SystemColumns.SEND_TIME_MICROS, 0L);
          rows.add(r);
        }
        store.createTableIfMissing(table, row);
        try (var writer = store.openWriter(table, row)) {
          writer.append(rows);
        }
        List<Object> got = new ArrayList<>();
        try (Connection c = store.openQueryConnection(); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT * FROM " + table + " ORDER BY " + SystemColumns.SEQUENCE)) {
          while (rs.next()) got.add(TestValues.eventColumns(rs, event));
        }
        assertEquals(want, got, "schema " + event);
      }
    }
  }
}
