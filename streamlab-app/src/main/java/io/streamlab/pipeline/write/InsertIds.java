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

  private static final Map<Long, Boolean> RECENT = new LinkedHashMap<>(1 << 16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > WINDOW;
    }
  };

  private InsertIds() {}

  static long id(int producerId, long sequence) {
    return ((long) producerId << 40) ^ sequence;
  }

  static boolean seen(long id) {
    synchronized (RECENT) {
      return RECENT.containsKey(id);
    }
  }

  static void remember(long[] ids, int n) {
    synchronized (RECENT) {
      for (int i = 0; i < n; i++) RECENT.put(ids[i], Boolean.TRUE);
    }
  }
}
