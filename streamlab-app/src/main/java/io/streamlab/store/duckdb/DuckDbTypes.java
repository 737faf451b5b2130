package io.streamlab.store.duckdb;

import io.streamlab.schema.AvroSchemas;
import io.streamlab.schema.SystemColumns;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/** Table DDL for DuckDB from the table record's Avro schema (nested records become STRUCTs). */
final class DuckDbTypes {
  private DuckDbTypes() {}

  /**
   * @param keyed with a PRIMARY KEY on (producer id, sequence), for insert-or-ignore appends
   *     (measured here: 66 k rows/s vs 88-98 k without the key, for 1.1 KB rows)
   */
  static String createTableSql(String table, Schema record, boolean keyed) {
    String columns = record.getFields().stream()
        .map(f -> quote(f.name()) + " " + type(f.schema(), f.name()) + (nullable(f.schema()) ? "" : " NOT NULL"))
        .collect(Collectors.joining(", "));
    return "CREATE TABLE IF NOT EXISTS " + quote(table) + " (" + columns + ", "
        + quote(SystemColumns.WRITE_TIME_MICROS) + " BIGINT NOT NULL"
        + (keyed ? ", PRIMARY KEY (" + quote(SystemColumns.PRODUCER_ID) + ", " + quote(SystemColumns.SEQUENCE) + ")" : "")
        + ")";
  }

  static boolean nullable(Schema s) {
    return AvroSchemas.nullable(s);
  }

  static Schema nonNull(Schema s) {
    return AvroSchemas.nonNull(s);
  }

  static String type(Schema s, String field) {
    Schema t = nonNull(s);
    return switch (t.getType()) {
      case STRING, ENUM -> "VARCHAR";
      case LONG -> "BIGINT";
      case INT -> "INTEGER";
      case BOOLEAN -> "BOOLEAN";
      case DOUBLE -> "DOUBLE";
      case FLOAT -> "FLOAT";
      case BYTES, FIXED -> "BLOB";
      case ARRAY -> type(t.getElementType(), field) + "[]";
      case MAP -> "MAP(VARCHAR, " + type(t.getValueType(), field) + ")";
      case RECORD -> "STRUCT(" + t.getFields().stream()
          .map(f -> quote(f.name()) + " " + type(f.schema(), field + "." + f.name()))
          .collect(Collectors.joining(", ")) + ")";
      default -> throw new IllegalArgumentException("field '" + field + "': no DuckDB column type for " + t.getType());
    };
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
