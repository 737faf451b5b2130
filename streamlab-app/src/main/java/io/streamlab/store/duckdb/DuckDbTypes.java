package io.streamlab.store.duckdb;

import io.streamlab.schema.AvroSchemas;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityKey;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/** Table DDL for DuckDB from the table record's Avro schema (nested records become STRUCTs). */
final class DuckDbTypes {
  private DuckDbTypes() {}

  /**
   * A table without a key, also for an exactly-once write: its writers store each identity once
   * themselves ({@link ArrowBatchWriter}), and the table is marked as such ({@link #markKeyedSql}).
   */
  static String createTableSql(String table, Schema record) {
    String columns = record.getFields().stream()
        .map(f -> quote(f.name()) + " " + type(f.schema(), f.name()) + (nullable(f.schema()) ? "" : " NOT NULL"))
        .collect(Collectors.joining(", "));
    return "CREATE TABLE IF NOT EXISTS " + quote(table) + " (" + columns + ", "
        + quote(SystemColumns.WRITE_TIME_MICROS) + " BIGINT NOT NULL)";
  }

  /**
   * Marks a table an exactly-once write created ({@link IdentityKey#present}): a table of an
   * at-least-once write may hold an identity twice, so an exactly-once write into it is refused.
   */
  static String markKeyedSql(String table) {
    return "COMMENT ON TABLE " + quote(table) + " IS '" + IdentityKey.DUCKDB_MARK + "'";
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
