package io.streamlab.store.throttle;

import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.quota.RowSizes;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;

/**
 * Splits an append into requests within the store's per-request limits, in order, as the
 * original client split a bundle's rows into insertAll requests. A single row over the byte
 * limit goes alone (and is refused as invalid: it can never be sent).
 */
final class Requests {
  private Requests() {}

  static List<List<GenericRecord>> split(List<GenericRecord> rows, QuotaLimits limits) {
    int maxRows = limits == null || limits.maxRowsPerRequest() == 0 ? Integer.MAX_VALUE : limits.maxRowsPerRequest();
    long maxBytes = limits == null || limits.maxBytesPerRequest() == 0 ? Long.MAX_VALUE : limits.maxBytesPerRequest();
    if (maxBytes == Long.MAX_VALUE && rows.size() <= maxRows) return List.of(rows);
    List<List<GenericRecord>> requests = new ArrayList<>();
    int start = 0;
    long bytes = 0;
    for (int i = 0; i < rows.size(); i++) {
      long size = maxBytes == Long.MAX_VALUE ? 0 : RowSizes.sizeOf(rows.get(i));
      if (i > start && (i - start >= maxRows || bytes + size > maxBytes)) {
        requests.add(rows.subList(start, i));
        start = i;
        bytes = 0;
      }
      bytes += size;
    }
    if (start < rows.size()) requests.add(rows.subList(start, rows.size()));
    return requests;
  }
}
