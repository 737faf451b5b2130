package io.streamlab.store.duckdb;

import io.streamlab.schema.SystemColumns;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/** Table DDL for DuckDB from the table record's Avro schema (nested records become STRUCTs). */
final class DuckDbTypes {
  private DuckDbTypes() {}

  static String createTableSql(String table, Schema record) {
    String columns = record.getFields().stream()
        .map(f -> quote(f.name()) + " " + type(f.schema(), f.name()) + (nullable(f.schema()) ? "" : " NOT NULL"))
        .collect(Collectors.joining(", "));
    return "CREATE TABLE IF NOT EXISTS " + quote(table) + " (" + columns + ", "
        + quote(SystemColumns.WRITE_TIME_MICROS) + " BIGINT NOT NULL)";
  }

  static boolean nullable(Schema s) {
    return s.isUnion() && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL);
  }

  /** The non-null branch of a nullable union, or the schema itself. */
  static Schema nonNull(Schema s) {
    if (!s.isUnion()) return s;
    var branches = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
    if (branches.size() != 1) throw new IllegalArgumentException("unions other than [null, T] have no column type: " + s);
    return branches.get(0);
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
