package io.streamlab.pipeline.write;

import io.streamlab.store.ForwardingTableStore;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import org.apache.avro.Schema;

/** A test's store decorator that wraps every writer the real store opens (a gate, a fault injected). */
interface WrappedWriters extends StoreDecorator {
  /** @return what the writers of {@code table} are appended through; {@code writer} itself to leave it alone */
  TableWriter wrap(String table, TableWriter writer);

  @Override
  default TableStore decorate(TableStore store, String storeId) {
    return new ForwardingTableStore(store) {
      @Override
      public TableWriter openWriter(String table, Schema schema, boolean keyed) throws Exception {
        return wrap(table, inner.openWriter(table, schema, keyed));
      }
    };
  }
}
