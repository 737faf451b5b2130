package io.streamlab.store.quota;

import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.sql.Connection;
import org.apache.avro.Schema;

/**
 * A fake warehouse quota in front of any table store (Fake: BigQuery cannot be
 * reached here, so its per-table limits and its two quota errors are reproduced in front of a
 * real store). Every writer of a table shares that table's {@link TableQuota}.
 */
public final class FakeQuotaStore implements TableStore {
  private final TableStore inner;
  private final String storeId;
  private final QuotaLimits limits;

  public FakeQuotaStore(TableStore inner, String storeId, QuotaLimits limits) {
    this.inner = inner;
    this.storeId = storeId;
    this.limits = limits;
  }

  @Override
  public void createTableIfMissing(String table, Schema tableRecordSchema) throws Exception {
    inner.createTableIfMissing(table, tableRecordSchema);
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema) throws Exception {
    return new FakeQuotaWriter(inner.openWriter(table, tableRecordSchema), TableQuota.shared(storeId, table, limits));
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
