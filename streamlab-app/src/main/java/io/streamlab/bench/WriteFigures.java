package io.streamlab.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.streamlab.cli.DurationConverter;
import io.streamlab.pipeline.write.WriteStats;
import java.util.Map;

/**
 * The write stage's request figures of a run (whole run, warm-up included: they come from the
 * ingestion's last status) and the warehouse model it ran against, for results.json ("write") and
 * the summary: connections opened and appends per connection (what --useConnectionPool changes),
 * the most requests in flight (bounded by keys / streams), the keys or shards active at the end and
 * at most, how many keys or shards sent a request at all, and with the model the local transactions
 * its requests were appended in (group commit).
 */
public record WriteFigures(long connectionsOpened, long appends, double appendsPerConnection, long maxRequestsInFlight,
    long activeKeysAtEnd, long maxActiveKeys, long keysUsed, long storeTransactions, Model warehouseModel) {

  /** The model's parameters; {"kind": "none"} alone without one. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Model(String kind, @JsonProperty("isModel") Boolean isModel, String distribution,
      Double roundTripP50Millis, Double roundTripP95Millis) {
    public boolean none() {
      return kind.equals("none");
    }
  }

  public static WriteFigures of(RunResult r) {
    Map<String, Long> w = r.series().isEmpty() ? Map.of() : r.series().get(r.series().size() - 1).write();
    long connections = w.getOrDefault("connections", 0L), appends = w.getOrDefault("appends", 0L);
    long maxActive = 0;
    for (Sample s : r.series()) maxActive = Math.max(maxActive, s.write().getOrDefault("activeKeys", 0L));
    return new WriteFigures(connections, appends, connections > 0 ? (double) appends / connections : 0,
        w.getOrDefault("inFlightMax", 0L), w.getOrDefault("activeKeys", 0L), maxActive,
        w.getOrDefault(WriteStats.KEYS_USED, 0L), w.getOrDefault("storeTransactions", 0L), model(r.info().configuration()));
  }

  /** The model's parameters from the run's configuration. */
  public static Model model(Map<String, String> configuration) {
    String kind = configuration.getOrDefault("warehouseModel", "none");
    if (kind.equals("none")) return new Model(kind, null, null, null, null);
    return new Model(kind, true, "log-normal per request, fitted to p50 / p95; exactly-once batch = append + commit; "
        + "requests that reach the store together share one local transaction, written during the round trip",
        millis(configuration.get("roundTripP50")), millis(configuration.get("roundTripP95")));
  }

  /** One line for the summary. */
  public static String summary(RunResult r) {
    WriteFigures f = of(r);
    Model model = f.warehouseModel();
    String m = model.none() ? "no warehouse model (the local store's own speed)"
        : String.format("warehouse MODEL %s: round trip per request log-normal p50 %.0f ms, p95 %.0f ms; "
            + "requests appended in %,d local transactions", model.kind(), model.roundTripP50Millis(),
            model.roundTripP95Millis(), f.storeTransactions());
    return String.format("connections %,d | appends %,d (%.1f per connection) | max requests in flight %,d | "
        + "active keys/shards %,d (max %,d, %,d used in all) | %s", f.connectionsOpened(), f.appends(),
        f.appendsPerConnection(), f.maxRequestsInFlight(), f.activeKeysAtEnd(), f.maxActiveKeys(), f.keysUsed(), m);
  }

  /** A configuration value as the flag took it ("75ms") or ISO-8601; null when it is not one. */
  private static Double millis(String duration) {
    if (duration == null) return null;
    try {
      return DurationConverter.parse(duration).toNanos() / 1e6;
    } catch (RuntimeException e) {
      return null; // shown as absent, never as a round trip of 0 ms
    }
  }
}
