package io.streamlab.store.quota;

import io.streamlab.store.ForwardingTableStore;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import org.apache.avro.Schema;

/**
 * A fake warehouse quota in front of any table store (Fake: BigQuery cannot be reached here, so
 * its per-table limits and its two quota errors are reproduced in front of a real store). Every
 * writer of a table shares that table's {@link TableQuota}.
 */
public final class FakeQuotaStore extends ForwardingTableStore {
  private final String storeId;
  private final QuotaLimits limits;

  public FakeQuotaStore(TableStore inner, String storeId, QuotaLimits limits) {
    super(inner);
    this.storeId = storeId;
    this.limits = limits;
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) throws Exception {
    return new FakeQuotaWriter(inner.openWriter(table, tableRecordSchema, keyed), TableQuota.shared(storeId, table, limits));
  }
}
