package io.streamlab.store;

import io.streamlab.schema.SystemColumns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The unique key on the event identity (producer id, sequence) that makes a table's
 * insert-or-ignore appends exactly-once. {@code CREATE TABLE IF NOT EXISTS} leaves an existing
 * table as it is, so a table an at-least-once run created has no such key, and an
 * insert-or-ignore into it inserts every replayed row again. An exactly-once write into it is
 * therefore refused, never silently weakened to at-least-once.
 */
public final class IdentityKey {
  private IdentityKey() {}

  /** Whether {@code table} exists in the connection's current schema. */
  public static boolean tableExists(Connection c, String table) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM information_schema.tables "
        + "WHERE table_name = ? AND table_schema = current_schema()")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /**
   * The comment that marks a DuckDB table of an exactly-once write: such a table has no key, its
   * writers store each identity once themselves (see the DuckDB store's writer), so its being
   * keyed is this mark. Tables of earlier versions carry a PRIMARY KEY instead, also recognised.
   */
  public static final String DUCKDB_MARK = "streamlab: exactly-once, each (" + SystemColumns.PRODUCER_ID + ", "
      + SystemColumns.SEQUENCE + ") stored once by its writers";

  /**
   * Whether the existing {@code table} has a primary or unique key on exactly (producer id,
   * sequence), or, in DuckDB, {@link #DUCKDB_MARK}.
   */
  public static boolean present(Connection c, String table) throws SQLException {
    boolean postgres = c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
    String sql = postgres
        ? "SELECT count(*) FROM pg_index i WHERE i.indrelid = to_regclass(quote_ident(?)) AND i.indisunique "
            + "AND i.indnkeyatts = 2 AND (SELECT array_agg(a.attname::text ORDER BY a.attname::text) FROM pg_attribute a "
            + "WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)) = ARRAY[?::text, ?::text]"
        : "SELECT (SELECT count(*) FROM duckdb_constraints() WHERE table_name = $1 AND schema_name = current_schema() "
            + "AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') AND list_sort(constraint_column_names) = [$2, $3]) "
            + "+ (SELECT count(*) FROM duckdb_tables() WHERE table_name = $1 AND schema_name = current_schema() "
            + "AND comment = '" + DUCKDB_MARK + "')";
    String[] columns = {SystemColumns.PRODUCER_ID, SystemColumns.SEQUENCE};
    java.util.Arrays.sort(columns);
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, table);
      ps.setString(2, columns[0]);
      ps.setString(3, columns[1]);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  /**
   * Refuses an exactly-once write into {@code table} when it exists without the identity key.
   *
   * @throws IllegalStateException naming the table and the ways out
   */
  public static void requireIfExists(Connection c, String table) throws SQLException {
    if (tableExists(c, table) && !present(c, table)) throw new IllegalStateException(missing(table));
  }

  /**
   * The same check before a job starts, against the table in {@code spec}'s store (the workers
   * check again when they create it, but their refusal is a failed job, not a clear message).
   */
  public static void requireIfExists(StoreSpec spec, String table) throws Exception {
    try (TableStore s = spec.undecorated().open(); Connection c = s.openQueryConnection()) {
      requireIfExists(c, table);
    }
  }

  static String missing(String table) {
    return "table '" + table + "' exists without the identity key (" + SystemColumns.PRODUCER_ID + ", "
        + SystemColumns.SEQUENCE + "): an at-least-once write created it, and an exactly-once write "
        + "(STORAGE_WRITE_API) into it could not drop replayed rows, nor tell its rows from the earlier ones. "
        + "Refused: leave out --table (each run then writes a table of its own), name a new table, or remove "
        + "this one ('streamlab clean', or DROP TABLE)";
  }
}
