package io.streamlab.pipeline.write;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * STREAMING_INSERTS' best-effort dedup: the insert ids (event identity: producer id, sequence)
 * of the rows inserted recently in this process, like BigQuery's dedup window of about a minute.
 * A retried request whose rows were already inserted is skipped; after a crash, or for an id
 * fallen out of the window, the duplicate is written (at-least-once: never lost, maybe twice).
 */
final class InsertIds {
  /** ~1 minute of ids at 16 k rows/s, ~100 MB at worst. */
  static final int WINDOW = 1_000_000;

  private static final Map<String, InsertIds> PER_TABLE = new java.util.HashMap<>();

  private final Map<Long, Boolean> recent = new LinkedHashMap<>(1 << 16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > WINDOW;
    }
  };

  private InsertIds() {}

  /** The window of one table (ids are unique per table, as BigQuery's are). */
  static InsertIds forTable(String storeAndTable) {
    synchronized (PER_TABLE) {
      return PER_TABLE.computeIfAbsent(storeAndTable, k -> new InsertIds());
    }
  }

  static long id(int producerId, long sequence) {
    return ((long) producerId << 40) ^ sequence;
  }

  synchronized boolean seen(long id) {
    return recent.containsKey(id);
  }

  synchronized void remember(long[] ids, int n) {
    for (int i = 0; i < n; i++) recent.put(ids[i], Boolean.TRUE);
  }
}
