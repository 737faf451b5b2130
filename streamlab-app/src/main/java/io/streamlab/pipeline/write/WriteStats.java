package io.streamlab.pipeline.write;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the write stage's requests did in this JVM (on the embedded runners: the whole pipeline):
 * store connections opened and appends sent (so the connection pool's effect shows as appends per
 * connection), requests in flight now and at most (bounded by keys / streams: one in flight per
 * key), and the keys or shards that sent a request lately (with auto-sharding: how many shards
 * the runner is using, over time). Reported in the status lines, summary and results.json.
 */
public final class WriteStats {
  /** A key or shard counts as active for this long after its last request. */
  static final long ACTIVE_WINDOW_NANOS = 5_000_000_000L;
  private static final WriteStats INSTANCE = new WriteStats();

  private final LongAdder connections = new LongAdder();
  private final LongAdder appends = new LongAdder();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong maxInFlight = new AtomicLong();
  private final ConcurrentHashMap<Object, Long> lastRequestNanos = new ConcurrentHashMap<>();

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
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
  }

  void requestEnded() {
    inFlight.decrementAndGet();
  }

  public long connections() { return connections.sum(); }
  public long appends() { return appends.sum(); }
  public long maxInFlight() { return maxInFlight.get(); }

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

  /** The figures as status-line keys (see IngestStatus): counters, and gauges named active* / *Max. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("connections", connections());
    m.put("appends", appends());
    m.put("inFlightMax", maxInFlight());
    m.put("activeKeys", activeKeys());
    // the warehouse model's group commit: local transactions for its requests (0 without the model)
    m.put("storeTransactions", io.streamlab.store.model.ModelStats.get().transactions());
    return m;
  }
}
