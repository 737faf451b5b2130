package io.streamlab.pipeline.write;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the write stage's requests did in this JVM (on the embedded runners: the whole pipeline):
 * store connections opened and appends sent (so the connection pool's effect shows as appends per
 * connection), requests in flight now and at most (bounded by keys / streams: one in flight per
 * key; at-least-once with the connection pool: its appends out at once), the keys or shards that sent a request lately and in all, and with auto-sharding the number of shards
 * it spreads rows over now (which moves with the load: recorded every second, it shows how). Reported in the status lines, summary and results.json.
 */
public final class WriteStats {
  /** A key or shard counts as active for this long after its last request. */
  static final long ACTIVE_WINDOW_NANOS = 5_000_000_000L;
  private static final WriteStats INSTANCE = new WriteStats();
  public static final String KEYS_USED = "keysUsed";
  /** The snapshot's key of the auto-sharded shard count (a gauge: "active" prefix, see IngestStatus#plus). */
  public static final String AUTO_SHARDS = "activeAutoShards";

  private final LongAdder connections = new LongAdder();
  private final LongAdder appends = new LongAdder();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong maxInFlight = new AtomicLong();
  private final ConcurrentHashMap<Object, Long> lastRequestNanos = new ConcurrentHashMap<>();
  /** Every key or shard that sent a request: how many of its keys a run really used. */
  private final Set<Object> keysUsed = ConcurrentHashMap.newKeySet();

  private WriteStats() {}

  public static WriteStats get() {
    return INSTANCE;
  }

  void connectionOpened() {
    connections.increment();
  }

  void appended() {
    appends.increment();
  }

  /** A key's (or shard's) request leaves: at most one per key is in flight. */
  void requestStarted(Object key) {
    lastRequestNanos.put(key, System.nanoTime());
    keysUsed.add(key);
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
  }

  void requestEnded() {
    inFlight.decrementAndGet();
  }

  /** An append leaves on a pooled connection (STORAGE_API_AT_LEAST_ONCE): in flight, without a key. */
  void pooledAppendStarted() {
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
  }

  public long connections() { return connections.sum(); }
  public long appends() { return appends.sum(); }
  public long maxInFlight() { return maxInFlight.get(); }
  public long keysUsed() { return keysUsed.size(); }

  /** Keys or shards that sent a request in the last {@link #ACTIVE_WINDOW_NANOS}. */
  public long activeKeys() {
    long since = System.nanoTime() - ACTIVE_WINDOW_NANOS;
    lastRequestNanos.values().removeIf(t -> t - since < 0);
    return lastRequestNanos.size();
  }

  /** Starts the maximum in flight afresh (a test measures one phase). */
  public void resetMaxInFlight() {
    maxInFlight.set(inFlight.get());
  }

  /**
   * How a figure of two processes one after the other (a killed one and its restart) combines:
   * counters add up, gauges (active*) are the later process's, maxima (*Max) the larger, and so are
   * the keys used (the two used many of the same keys: the larger is a lower bound).
   */
  public static BinaryOperator<Long> combined(String key) {
    if (key.startsWith("active")) return (earlier, later) -> later;
    return key.endsWith("Max") || key.equals(KEYS_USED) ? Math::max : Long::sum;
  }

  /** The figures as status-line keys (see IngestStatus): counters, keys used, and gauges named active* / *Max. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("connections", connections());
    m.put("appends", appends());
    m.put("inFlightMax", maxInFlight());
    m.put("activeKeys", activeKeys());
    // the warehouse model's group commit: local transactions for its requests (0 without the model)
    m.put("storeTransactions", io.streamlab.store.model.ModelStats.get().transactions());
    m.put(KEYS_USED, keysUsed());
    if (AutoShards.inUse()) m.put(AUTO_SHARDS, (long) AutoShards.current());
    return m;
  }
}
