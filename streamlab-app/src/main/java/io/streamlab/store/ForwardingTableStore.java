package io.streamlab.store;

import java.sql.Connection;
import org.apache.avro.Schema;

/**
 * A store decorator's base: everything goes to the wrapped store, which it closes; a decorator
 * overrides what it changes (usually {@link #openWriter}).
 */
public abstract class ForwardingTableStore implements TableStore {
  protected final TableStore inner;

  protected ForwardingTableStore(TableStore inner) {
    this.inner = inner;
  }

  @Override
  public void createTableIfMissing(String table, Schema tableRecordSchema, boolean keyed) throws Exception {
    inner.createTableIfMissing(table, tableRecordSchema, keyed);
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) throws Exception {
    return inner.openWriter(table, tableRecordSchema, keyed);
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
