package io.streamlab.store;

import java.util.List;
import org.apache.avro.generic.GenericRecord;

/**
 * Appends table records (event fields + system fields, see SystemColumns) to one table. One
 * writer per thread; {@link #append} is one atomic, durable append: when it returns the rows are
 * visible to readers, which is the moment end-to-end latency is measured to. A writer asked to
 * {@link #holdUntilCommit} and willing to instead keeps its appends in one open transaction,
 * visible (and durable) once {@link #commitHeld} returns.
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

  /**
   * Asks the writer to keep its appends from now on in one transaction until {@link #commitHeld},
   * where the store writes a large transaction more cheaply than many small ones (DuckDB). An
   * append that fails leaves the appends held before it in the store (or throws
   * {@link HeldAppendsLost}), so a caller retries or splits it as it would have anyway.
   *
   * @return whether it will; false (the default): every append stays visible when it returns
   */
  default boolean holdUntilCommit() throws Exception {
    return false;
  }

  /** Commits the appends held since the last commit: when it returns they are visible and durable. */
  default void commitHeld() throws Exception {}

  @Override
  void close() throws Exception;

  /**
   * Held appends that could not be kept when a later append failed: they are not in the store,
   * though their appends returned. Only the caller's bundle failing (the runner replaying what it
   * read since its last checkpoint) brings them back, so no retry may swallow this.
   */
  final class HeldAppendsLost extends Exception {
    public HeldAppendsLost(String message, Throwable cause) {
      super(message, cause);
    }

    /** The HeldAppendsLost in {@code e}'s causes, or null. */
    public static HeldAppendsLost in(Throwable e) {
      return Causes.find(e, HeldAppendsLost.class);
    }
  }
}
