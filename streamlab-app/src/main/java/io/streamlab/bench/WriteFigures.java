package io.streamlab.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The write stage's request figures of a run (whole run, warm-up included: they come from the
 * ingestion's last status) and the warehouse model it ran against, for results.json and the
 * summary: connections opened and appends per connection (what --useConnectionPool changes), the
 * most requests in flight (bounded by keys / streams), the keys or shards active at the end.
 */
public final class WriteFigures {
  private WriteFigures() {}

  public static Map<String, Object> of(RunResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    Map<String, Long> w = r.series().isEmpty() ? Map.of() : r.series().get(r.series().size() - 1).write();
    long connections = w.getOrDefault("connections", 0L), appends = w.getOrDefault("appends", 0L);
    m.put("connectionsOpened", connections);
    m.put("appends", appends);
    m.put("appendsPerConnection", connections > 0 ? (double) appends / connections : 0);
    m.put("maxRequestsInFlight", w.getOrDefault("inFlightMax", 0L));
    m.put("activeKeysAtEnd", w.getOrDefault("activeKeys", 0L));
    long maxActive = 0;
    for (Sample s : r.series()) maxActive = Math.max(maxActive, s.write().getOrDefault("activeKeys", 0L));
    m.put("maxActiveKeys", maxActive);
    m.put("warehouseModel", model(r.info().configuration()));
    return m;
  }

  /** The model's parameters from the run's configuration; {"kind": "none"} without one. */
  public static Map<String, Object> model(Map<String, String> configuration) {
    Map<String, Object> m = new LinkedHashMap<>();
    String kind = configuration.getOrDefault("warehouseModel", "none");
    m.put("kind", kind);
    if (!kind.equals("none")) {
      m.put("isModel", true);
      m.put("distribution", "log-normal per request, fitted to p50 / p95; exactly-once batch = append + commit");
      m.put("roundTripP50Millis", millis(configuration.get("roundTripP50")));
      m.put("roundTripP95Millis", millis(configuration.get("roundTripP95")));
    }
    return m;
  }

  /** One line for the summary. */
  public static String summary(RunResult r) {
    Map<String, Object> f = of(r);
    @SuppressWarnings("unchecked")
    Map<String, Object> model = (Map<String, Object>) f.get("warehouseModel");
    String m = model.get("kind").equals("none") ? "no warehouse model (the local store's own speed)"
        : String.format("warehouse MODEL %s: round trip per request log-normal p50 %.0f ms, p95 %.0f ms", model.get("kind"),
            (Double) model.get("roundTripP50Millis"), (Double) model.get("roundTripP95Millis"));
    return String.format("connections %,d | appends %,d (%.1f per connection) | max requests in flight %,d | "
        + "active keys/shards %,d (max %,d) | %s", (Long) f.get("connectionsOpened"), (Long) f.get("appends"),
        (Double) f.get("appendsPerConnection"), (Long) f.get("maxRequestsInFlight"), (Long) f.get("activeKeysAtEnd"),
        (Long) f.get("maxActiveKeys"), m);
  }

  private static double millis(String duration) {
    if (duration == null) return 0;
    try {
      return Duration.parse(duration).toNanos() / 1e6;
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
