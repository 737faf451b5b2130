package io.streamlab.store;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * State that every writer of one table in this JVM shares (quota buckets, a rate limiter, a
 * shared backoff, counters). On an embedded Flink MiniCluster or the DirectRunner every worker
 * thread is in this JVM, so a per-table object here is what a warehouse's per-table quota and a
 * per-table client throttle mean. Entries live as long as the JVM: keys name a store and table,
 * and a new store file or table gets fresh state.
 */
public final class JvmShared {
  private static final ConcurrentHashMap<String, Object> STATE = new ConcurrentHashMap<>();

  private JvmShared() {}

  /** The object of this kind for this key, created by {@code create} the first time. */
  @SuppressWarnings("unchecked")
  public static <T> T get(Class<T> kind, String key, Supplier<T> create) {
    return (T) STATE.computeIfAbsent(kind.getName() + "|" + key, k -> create.get());
  }

  /** The object of this kind for this key, or null if nobody created it. */
  @SuppressWarnings("unchecked")
  public static <T> T find(Class<T> kind, String key) {
    return (T) STATE.get(kind.getName() + "|" + key);
  }

  /** Names one table of one store. */
  public static String tableKey(String storeId, String table) {
    return storeId + "#" + table;
  }
}
