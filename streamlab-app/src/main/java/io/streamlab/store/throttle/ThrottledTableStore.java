package io.streamlab.store.throttle;

import io.streamlab.store.JvmShared;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.sql.Connection;
import org.apache.avro.Schema;

/** A table store whose writers send their appends through a {@link ThrottlingStrategy}. */
final class ThrottledTableStore implements TableStore {
  private final TableStore inner;
  private final String storeId;
  private final ThrottleSpec spec;

  ThrottledTableStore(TableStore inner, String storeId, ThrottleSpec spec) {
    this.inner = inner;
    this.storeId = storeId;
    this.spec = spec;
  }

  @Override
  public void createTableIfMissing(String table, Schema tableRecordSchema) throws Exception {
    inner.createTableIfMissing(table, tableRecordSchema);
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema) {
    String key = JvmShared.tableKey(storeId, table);
    return new ThrottledTableWriter(() -> inner.openWriter(table, tableRecordSchema), spec.strategyFor(key),
        ThrottleStats.shared(key), spec.pool(), key, spec.quota());
  }

  @Override
  public Connection openQueryConnection() throws Exception {
    return inner.openQueryConnection();
  }

  @Override
  public void close() throws Exception {
    inner.close();
  }
}
