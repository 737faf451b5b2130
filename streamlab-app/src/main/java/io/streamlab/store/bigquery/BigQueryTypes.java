package io.streamlab.store.bigquery;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.schema.AvroSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * BigQuery {@link TableSchema} from the table record's canonical Avro schema, as DuckDbTypes and
 * PgTypes give DDL for theirs:
 *
 * <pre>
 * string, enum        STRING   (an enum holds its symbol)
 * int, long           INT64
 * float, double       FLOAT64
 * boolean             BOOL
 * bytes, fixed        BYTES
 * record              RECORD   with its fields
 * array&lt;T&gt;            T, mode REPEATED
 * map&lt;string, T&gt;      RECORD (key STRING REQUIRED, value T), mode REPEATED
 * [null, T]           T, mode NULLABLE (REQUIRED otherwise)
 * </pre>
 *
 * A field's doc becomes its column's description. A nullable array or map is REPEATED, since BigQuery has no NULLABLE REPEATED: a null array is
 * stored empty. What BigQuery cannot hold is refused with one line naming the field: an array or
 * map directly inside an array (BigQuery forbids arrays of arrays, and a map is a repeated
 * record), an array of nullable elements (a BigQuery array cannot hold NULL), column names that
 * differ only in case (BigQuery names are case-insensitive) and BigQuery's reserved name prefixes.
 */
public final class BigQueryTypes {
  /** Column names BigQuery reserves (compared case-insensitively). */
  private static final List<String> RESERVED_PREFIXES =
      List.of("_table_", "_file_", "_partition", "_row_timestamp", "__root__", "_colidentifier");

  private BigQueryTypes() {}

  /**
   * @param record the table record's schema (SystemColumns.tableRecordSchema, DeadLetters.SCHEMA)
   * @throws IllegalArgumentException one line naming the field BigQuery cannot hold
   */
  public static TableSchema tableSchema(Schema record) {
    if (record.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("a BigQuery table needs a record schema, not " + record.getType());
    }
    return new TableSchema().setFields(fields(record, record.getName()));
  }

  private static List<TableFieldSchema> fields(Schema record, String path) {
    List<TableFieldSchema> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (Schema.Field f : record.getFields()) {
      String where = path + "." + f.name();
      String lower = f.name().toLowerCase(Locale.ROOT);
      String clash = seen.put(lower, f.name());
      if (clash != null) {
        throw new IllegalArgumentException("field '" + where + "': BigQuery column names are case-insensitive, and '"
            + clash + "' is already a column of " + path);
      }
      for (String prefix : RESERVED_PREFIXES) {
        if (lower.startsWith(prefix)) {
          throw new IllegalArgumentException("field '" + where + "': BigQuery reserves column names starting with "
              + prefix.toUpperCase(Locale.ROOT));
        }
      }
      TableFieldSchema column = column(f.name(), f.schema(), where);
      if (f.doc() != null && !f.doc().isEmpty()) column.setDescription(f.doc());
      out.add(column);
    }
    return out;
  }

  /** The column (or record field) {@code name} holding values of schema {@code s}. */
  private static TableFieldSchema column(String name, Schema s, String where) {
    Schema t = AvroSchemas.nonNull(s);
    TableFieldSchema c = new TableFieldSchema().setName(name);
    switch (t.getType()) {
      case ARRAY -> {
        Schema element = t.getElementType();
        if (AvroSchemas.nullable(element)) {
          throw new IllegalArgumentException("field '" + where + "': array of nullable elements; a BigQuery array "
              + "cannot hold NULL");
        }
        switch (element.getType()) {
          case ARRAY -> throw new IllegalArgumentException("field '" + where + "': array of arrays; BigQuery "
              + "forbids arrays of arrays (wrap the inner array in a record)");
          case MAP -> throw new IllegalArgumentException("field '" + where + "': array of maps; a map is a repeated "
              + "key/value record in BigQuery, and BigQuery forbids arrays of arrays (wrap the map in a record)");
          default -> { }
        }
        TableFieldSchema e = column(name, element, where + "[]");
        return e.setMode("REPEATED");
      }
      case MAP -> {
        TableFieldSchema key = new TableFieldSchema().setName("key").setType("STRING").setMode("REQUIRED");
        TableFieldSchema value = column("value", t.getValueType(), where + "{}");
        return c.setType("RECORD").setMode("REPEATED").setFields(List.of(key, value));
      }
      case RECORD -> c.setType("RECORD").setFields(fields(t, where));
      default -> c.setType(scalarType(t, where));
    }
    return c.setMode(AvroSchemas.nullable(s) ? "NULLABLE" : "REQUIRED");
  }

  private static String scalarType(Schema t, String where) {
    return switch (t.getType()) {
      case STRING, ENUM -> "STRING";
      case INT, LONG -> "INT64";
      case FLOAT, DOUBLE -> "FLOAT64";
      case BOOLEAN -> "BOOL";
      case BYTES, FIXED -> "BYTES";
      default -> throw new IllegalArgumentException("field '" + where + "': no BigQuery column type for " + t);
    };
  }
}
