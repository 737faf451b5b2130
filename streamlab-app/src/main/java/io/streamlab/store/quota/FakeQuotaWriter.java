package io.streamlab.store.quota;

import io.streamlab.store.TableWriter;
import java.util.List;
import org.apache.avro.generic.GenericRecord;

/** One append = one request to the (fake) warehouse: admitted by the table's quota, or refused. */
final class FakeQuotaWriter implements TableWriter {
  private final TableWriter inner;
  private final TableQuota quota;

  FakeQuotaWriter(TableWriter inner, TableQuota quota) {
    this.inner = inner;
    this.quota = quota;
  }

  @Override
  public long append(List<GenericRecord> records) throws Exception {
    int n = records.size();
    long bytes = RowSizes.sizeOf(records);
    quota.admit(n, bytes);
    boolean written = false;
    try {
      long t = inner.append(records);
      written = true;
      return t;
    } finally {
      quota.release(n, bytes, written);
    }
  }

  @Override
  public void close() throws Exception {
    inner.close();
  }
}
