package io.streamlab.store;

import org.apache.avro.Schema;

/**
 * A place tables live (DuckDB file, PostgreSQL, ...). Table columns come from the table record
 * schema (event + system fields) plus the write-time column the store stamps itself.
 */
public interface TableStore extends AutoCloseable {
  /** Creates the table if it does not exist yet; an existing table is left as it is. */
  void createTableIfMissing(String table, Schema tableRecordSchema) throws Exception;

  /** A writer for one thread. */
  TableWriter openWriter(String table, Schema tableRecordSchema) throws Exception;

  /** A plain JDBC connection for verification queries (the caller closes it). */
  java.sql.Connection openQueryConnection() throws Exception;

  @Override
  void close() throws Exception;
}
