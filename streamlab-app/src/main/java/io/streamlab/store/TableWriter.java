package io.streamlab.store;

import java.util.List;
import org.apache.avro.generic.GenericRecord;

/**
 * Appends table records (event fields + system fields, see SystemColumns) to one table. One
 * writer per thread; {@link #append} is one atomic, durable append: when it returns the rows are
 * visible to readers, which is the moment end-to-end latency is measured to.
 */
public interface TableWriter extends AutoCloseable {
  /**
   * Appends the records, stamping each with the write time.
   *
   * @return the write time (epoch micros) stamped on these rows
   */
  long append(List<GenericRecord> records) throws Exception;

  /**
   * Whether several threads may append through this writer at once, each append returning when
   * its own rows are in. Not by default: a store connection is one thread's.
   */
  default boolean takesConcurrentAppends() {
    return false;
  }

  @Override
  void close() throws Exception;
}
