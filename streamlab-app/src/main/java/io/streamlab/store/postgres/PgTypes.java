package io.streamlab.store.postgres;

import io.streamlab.schema.AvroSchemas;
import io.streamlab.schema.SystemColumns;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/**
 * Table DDL for PostgreSQL from the table record's Avro schema. Scalars map to their column
 * types, arrays of scalars to PostgreSQL arrays; records, maps and arrays of those become json
 * (queryable with -> and ->>, and free to evolve with the schema, where a composite type would
 * need a CREATE TYPE per nested record and per change). Enums are text holding the symbol.
 *
 * <p>json, not jsonb: the server only checks a json value's text and stores it, while it parses a
 * jsonb value into its binary form, sorting and de-duplicating keys, on every insert: twice the
 * server's CPU for the default event's five nested records (docs/perf-notes.md, "json columns"),
 * on a machine where the server shares the cores with the pipeline. Tables made as jsonb before
 * stay writable ({@link PgCopyWriter} asks which columns are).
 */
final class PgTypes {
  static final int BOOL = 16, BYTEA = 17, INT8 = 20, INT4 = 23, TEXT = 25, FLOAT4 = 700, FLOAT8 = 701;

  private PgTypes() {}

  static String createTableSql(String table, Schema record, boolean keyed) {
    String columns = record.getFields().stream()
        .map(f -> quote(f.name()) + " " + type(f.schema(), f.name()) + (AvroSchemas.nullable(f.schema()) ? "" : " NOT NULL"))
        .collect(Collectors.joining(", "));
    return "CREATE TABLE IF NOT EXISTS " + quote(table) + " (" + columns + ", "
        + quote(SystemColumns.WRITE_TIME_MICROS) + " bigint NOT NULL"
        + (keyed ? ", PRIMARY KEY (" + quote(SystemColumns.PRODUCER_ID) + ", " + quote(SystemColumns.SEQUENCE) + ")" : "")
        + ")";
  }

  static String type(Schema s, String field) {
    Schema t = AvroSchemas.nonNull(s);
    if (t.getType() == Schema.Type.ARRAY && isScalar(t.getElementType())) {
      return scalarType(AvroSchemas.nonNull(t.getElementType())) + "[]";
    }
    return isScalar(t) ? scalarType(t) : "json";
  }

  static boolean isScalar(Schema s) {
    return switch (AvroSchemas.nonNull(s).getType()) {
      case STRING, ENUM, INT, LONG, FLOAT, DOUBLE, BOOLEAN, BYTES, FIXED -> true;
      case RECORD, ARRAY, MAP -> false;
      default -> throw new IllegalArgumentException("no PostgreSQL column type for " + s);
    };
  }

  private static String scalarType(Schema t) {
    return switch (t.getType()) {
      case STRING, ENUM -> "text";
      case INT -> "integer";
      case LONG -> "bigint";
      case FLOAT -> "real";
      case DOUBLE -> "double precision";
      case BOOLEAN -> "boolean";
      case BYTES, FIXED -> "bytea";
      default -> throw new IllegalArgumentException("not a scalar: " + t);
    };
  }

  static int scalarOid(Schema s) {
    return switch (AvroSchemas.nonNull(s).getType()) {
      case STRING, ENUM -> TEXT;
      case INT -> INT4;
      case LONG -> INT8;
      case FLOAT -> FLOAT4;
      case DOUBLE -> FLOAT8;
      case BOOLEAN -> BOOL;
      case BYTES, FIXED -> BYTEA;
      default -> throw new IllegalArgumentException("not a scalar: " + s);
    };
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
