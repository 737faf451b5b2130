package io.streamlab.store;

import org.apache.avro.Schema;

/**
 * A place tables live (DuckDB file, PostgreSQL, ...). Table columns come from the table record
 * schema (event + system fields) plus the write-time column the store stamps itself.
 *
 * <p>A table is either plain (appends are at-least-once: a retried append writes its rows again)
 * or <em>keyed</em>: it carries a unique key on the event identity (producer id, sequence), and
 * its writers insert-or-ignore, so appending the same event again, by a retry, a replay after a
 * crash or another writer, leaves exactly one row. That is how STORAGE_WRITE_API is exactly-once.
 */
public interface TableStore extends AutoCloseable {
  /** Creates the table if it does not exist yet; an existing table is left as it is. */
  void createTableIfMissing(String table, Schema tableRecordSchema, boolean keyed) throws Exception;

  default void createTableIfMissing(String table, Schema tableRecordSchema) throws Exception {
    createTableIfMissing(table, tableRecordSchema, false);
  }

  /**
   * A writer for one thread.
   *
   * @param keyed the table was created keyed: every append is an atomic insert-or-ignore on
   *     (producer id, sequence)
   */
  TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) throws Exception;

  default TableWriter openWriter(String table, Schema tableRecordSchema) throws Exception {
    return openWriter(table, tableRecordSchema, false);
  }

  /** A plain JDBC connection for verification queries (the caller closes it). */
  java.sql.Connection openQueryConnection() throws Exception;

  @Override
  void close() throws Exception;
}
