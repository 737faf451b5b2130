package io.streamlab.store.throttle;

import io.streamlab.store.ForwardingTableStore;
import io.streamlab.store.JvmShared;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import org.apache.avro.Schema;

/** A table store whose writers send their appends through the table's {@link ThrottlingStrategy}. */
final class ThrottledTableStore extends ForwardingTableStore {
  private final String storeId;
  private final ThrottleSpec spec;

  ThrottledTableStore(TableStore inner, String storeId, ThrottleSpec spec) {
    super(inner);
    this.storeId = storeId;
    this.spec = spec;
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) {
    String key = JvmShared.tableKey(storeId, table);
    return new ThrottledTableWriter(() -> inner.openWriter(table, tableRecordSchema, keyed), spec.strategyFor(key),
        ThrottleStats.shared(key), spec.pool(), key, spec.quota());
  }
}
