package io.streamlab.store.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.RandomSchemas;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.beam.sdk.extensions.avro.schemas.utils.AvroUtils;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryUtils;
import org.junit.jupiter.api.Test;

/**
 * The canonical schema -> BigQuery TableSchema: exact columns for an example and the dead-letter
 * table, agreement with Beam's own (independent) Avro -> Beam schema -> TableSchema path on the
 * example schemas and 300 random ones, and one-line errors naming the field for what BigQuery
 * cannot hold.
 */
class BigQueryTypesTest {
  @Test
  void compoundEventColumns() {
    TableSchema t = BigQueryTypes.tableSchema(SystemColumns.tableRecordSchema(ExampleSchemas.load(ExampleSchemas.COMPOUND_AVRO)));
    assertEquals(String.join(", ",
        "eventId STRING REQUIRED",
        "eventTime INT64 REQUIRED",
        "kind STRING REQUIRED",
        "user RECORD REQUIRED (userId STRING REQUIRED, email STRING NULLABLE, age INT64 NULLABLE, segments STRING REPEATED)",
        "device RECORD NULLABLE (deviceId STRING REQUIRED, os STRING REQUIRED, screenWidth INT64 REQUIRED, pixelRatio FLOAT64 REQUIRED)",
        "items RECORD REPEATED (sku STRING REQUIRED, quantity INT64 REQUIRED, unitPrice FLOAT64 REQUIRED, "
            + "attributes RECORD REPEATED (key STRING REQUIRED, value STRING REQUIRED))",
        "total FLOAT64 REQUIRED",
        "paid BOOL REQUIRED",
        "traceId BYTES REQUIRED",
        "payload BYTES NULLABLE",
        "metrics RECORD REPEATED (key STRING REQUIRED, value INT64 REQUIRED)",
        "sl_producer_id INT64 REQUIRED",
        "sl_sequence INT64 REQUIRED",
        "sl_send_time_us INT64 REQUIRED"), describe(t.getFields()));
  }

  @Test
  void deadLetterTableColumns() {
    assertEquals("event_id STRING REQUIRED, stage STRING REQUIRED, error_message STRING REQUIRED, cause STRING REQUIRED, "
            + "headers STRING REQUIRED, original_bytes BYTES REQUIRED, sl_producer_id INT64 NULLABLE, "
            + "sl_sequence INT64 NULLABLE, sl_send_time_us INT64 REQUIRED",
        describe(BigQueryTypes.tableSchema(DeadLetters.SCHEMA).getFields()));
  }

  @Test
  void nullableCollectionsAreRepeatedAndDocsAreDescriptions() {
    Schema s = SchemaBuilder.record("R").fields()
        .name("tags").doc("the tags").type().nullable().array().items().stringType().noDefault()
        .name("counts").type().nullable().map().values().nullable().longType().noDefault()
        .endRecord();
    List<TableFieldSchema> f = BigQueryTypes.tableSchema(s).getFields();
    assertEquals("tags STRING REPEATED, counts RECORD REPEATED (key STRING REQUIRED, value INT64 NULLABLE)", describe(f));
    assertEquals("the tags", f.get(0).getDescription());
  }

  /**
   * BigQueryUtils.toTableSchema(AvroUtils.toBeamSchema(...)) is Beam's route from the same Avro
   * schema (and the table BEAM_ROW's useBeamSchema() creates): it must give the same columns, and
   * refuse the same schemas.
   */
  @Test
  void agreesWithBeamOnExampleAndRandomSchemas() {
    int translated = 0, refused = 0;
    List<Schema> schemas = new java.util.ArrayList<>();
    for (String name : ExampleSchemas.ALL) schemas.add(ExampleSchemas.load(name));
    for (long seed = 0; seed < 300; seed++) schemas.add(RandomSchemas.generate(seed));
    for (Schema event : schemas) {
      Schema row = SystemColumns.tableRecordSchema(event);
      TableSchema beam;
      try {
        beam = BigQueryUtils.toTableSchema(AvroUtils.toBeamSchema(row));
      } catch (IllegalArgumentException e) {
        IllegalArgumentException ours = assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(row),
            "Beam refuses " + row + " (" + e.getMessage() + "), streamlab must too");
        assertOneLineNamingAField(ours);
        refused++;
        continue;
      }
      assertEquals(describe(beam.getFields()), describe(BigQueryTypes.tableSchema(row).getFields()), "schema " + row);
      translated++;
    }
    // the generator makes both kinds; a change that made every schema fail or pass would hide here
    assertTrue(translated > 100, "translated " + translated);
    assertTrue(refused > 10, "refused " + refused);
  }

  @Test
  void arrayOfArraysIsRefusedNamingTheField() {
    Schema s = SchemaBuilder.record("Ev").fields()
        .name("ok").type().longType().noDefault()
        .name("grid").type().array().items().array().items().longType().noDefault()
        .endRecord();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(s));
    assertEquals("field 'Ev.grid': array of arrays; BigQuery forbids arrays of arrays (wrap the inner array in a record)",
        e.getMessage());
  }

  @Test
  void nestedArrayOfMapsIsRefusedWithItsPath() {
    Schema inner = SchemaBuilder.record("In").fields()
        .name("m").type().array().items().map().values().stringType().noDefault().endRecord();
    Schema s = SchemaBuilder.record("Ev").fields().name("parts").type().array().items(inner).noDefault().endRecord();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(s));
    assertTrue(e.getMessage().startsWith("field 'Ev.parts[].m': array of maps"), e.getMessage());
    assertOneLineNamingAField(e);
  }

  @Test
  void arrayOfNullablesCaseClashesAndReservedNamesAreRefused() {
    Schema nullableItems = SchemaBuilder.record("Ev").fields()
        .name("xs").type().array().items().nullable().stringType().noDefault().endRecord();
    assertEquals("field 'Ev.xs': array of nullable elements; a BigQuery array cannot hold NULL",
        assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(nullableItems)).getMessage());

    Schema clash = SchemaBuilder.record("Ev").fields()
        .name("userId").type().stringType().noDefault().name("USERID").type().stringType().noDefault().endRecord();
    assertEquals("field 'Ev.USERID': BigQuery column names are case-insensitive, and 'userId' is already a column of Ev",
        assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(clash)).getMessage());

    Schema reserved = SchemaBuilder.record("Ev").fields()
        .name("_PARTITIONTIME").type().longType().noDefault().endRecord();
    assertEquals("field 'Ev._PARTITIONTIME': BigQuery reserves column names starting with _PARTITION",
        assertThrows(IllegalArgumentException.class, () -> BigQueryTypes.tableSchema(reserved)).getMessage());
  }

  private static void assertOneLineNamingAField(IllegalArgumentException e) {
    assertTrue(e.getMessage().startsWith("field '"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  /** "name TYPE MODE (children)", with Beam's STRUCT as RECORD and no mode as NULLABLE (BigQuery's reading). */
  static String describe(List<TableFieldSchema> fields) {
    return fields.stream().map(f -> f.getName() + " " + ("STRUCT".equals(f.getType()) ? "RECORD" : f.getType()) + " "
            + (f.getMode() == null ? "NULLABLE" : f.getMode())
            + (f.getFields() == null ? "" : " (" + describe(f.getFields()) + ")"))
        .collect(Collectors.joining(", "));
  }
}
