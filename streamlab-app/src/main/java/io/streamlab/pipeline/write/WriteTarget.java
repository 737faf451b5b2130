package io.streamlab.pipeline.write;

import io.streamlab.store.StoreSpec;
import org.apache.avro.Schema;

/**
 * The table a write transform writes to.
 *
 * @param tableSchema the table records' schema (event fields + system fields)
 * @param appendBatchSize most rows one append holds (at-least-once) or a stream buffers (STORAGE_WRITE_API)
 */
public record WriteTarget(StoreSpec store, String table, Schema tableSchema, int appendBatchSize) {
  WriteTarget withStore(StoreSpec other) {
    return new WriteTarget(other, table, tableSchema, appendBatchSize);
  }

  /** Names the store and table: keys of different tables are different keys (KeyedRequestsFn). */
  String scope() {
    return store + "/" + table;
  }
}
