package io.streamlab.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scenario of the study in the study's terms, read from its runs' results.json: the max-rate
 * search's highest sustained rate, and the steady window's CPU, throughput per core, latency,
 * shuffle and stages. A figure the runs do not record is null (printed "n/a"), never made up.
 *
 * @param scenario the scenario's name
 * @param studyRun the study's run number it reproduces (null: not one of the seven)
 * @param writeMethod as configured
 * @param formatToStore as configured
 * @param keys the write stage's keys or shards as configured ("50", "auto", "streams: auto", "none")
 * @param highestSustainedPerSec the search's highest sustained events/s (null: no search run; 0: none sustained)
 * @param steadyRatePerSec the common rate of the steady window
 * @param eventsPerSec what the steady window ingested per second
 * @param cpuSecondsPerMillionEvents pipeline CPU-seconds per million events in the steady window
 * @param megabytesPerSecPerCore payload MB per pipeline CPU-second in the steady window
 * @param p50Millis end to end, steady window
 * @param p99Millis end to end, steady window
 * @param bytesRead payload bytes read in the steady window
 * @param bytesShuffled bytes the write stage's shuffle serialized in the steady window
 * @param lost rows lost over both runs
 * @param duplicated rows duplicated over both runs
 * @param failed rows dead-lettered over both runs
 * @param stageWallSeconds per stage, busy seconds in the steady window (stages that did work)
 * @param stageMillisFromRead per stage, mean milliseconds from the read to the stage's output in the
 *     steady window (stages that record it; the study adds these up)
 * @param convertedElementBytes mean element size after conversion to the store format (null: not recorded)
 * @param activeKeysMax most write keys/shards active at once (null: the runs do not record it)
 * @param connectionsOpened store connections the writers opened, steady run (null: not recorded)
 * @param appendsPerConnection requests per connection, steady run (null: not recorded)
 * @param maxRequestsInFlight most table requests in flight at once, steady run (null: not recorded)
 * @param warehouseModel the warehouse model's parameters as results.json gives them (null: not recorded)
 * @param searchDirectory where the search run's files are (null: no search)
 * @param steadyDirectory where the steady run's files are
 */
public record StudyRow(String scenario, Integer studyRun, String writeMethod, String formatToStore, String keys,
    Double highestSustainedPerSec, double steadyRatePerSec, double eventsPerSec, Double cpuSecondsPerMillionEvents,
    Double megabytesPerSecPerCore, double p50Millis, double p99Millis, long bytesRead, long bytesShuffled,
    long lost, long duplicated, long failed, Map<String, Double> stageWallSeconds,
    Map<String, Double> stageMillisFromRead, Double convertedElementBytes,
    Integer activeKeysMax, Long connectionsOpened, Double appendsPerConnection, Long maxRequestsInFlight,
    JsonNode warehouseModel, String searchDirectory, String steadyDirectory) {

  /** The series field a run records its active write keys or shards under, once it does. */
  public static final String ACTIVE_KEYS_SERIES = "activeKeys";
  /** The results.json object of the write stage's request figures and warehouse model, once there is one. */
  public static final String WRITE_FIELD = "write";

  /**
   * @param search the max-rate search's results.json (null: no search)
   * @param steady the steady window's results.json
   */
  public static StudyRow of(String scenario, JsonNode search, JsonNode steady, double steadyRate) {
    JsonNode conf = steady.path("configuration"), ing = steady.path("ingestion"), lat = steady.path("latencyMillis");
    double events = ing.has("events") ? ing.path("events").asDouble()
        : ing.path("eventsPerSec").asDouble() * ing.path("writingSeconds").asDouble();
    double cpu = ing.path("cpuSeconds").asDouble();
    Map<String, Double> walls = new LinkedHashMap<>();
    Map<String, Double> fromRead = new LinkedHashMap<>();
    Double converted = null;
    for (JsonNode s : steady.path("stages")) {
      if (s.path("elements").asLong() == 0) continue;
      walls.put(s.path("stage").asText(), s.path("wallSeconds").asDouble());
      if (s.path("fromReadMeanMillis").isNumber()) {
        fromRead.put(s.path("stage").asText(), s.path("fromReadMeanMillis").asDouble());
      }
      if (s.path("stage").asText().equals("convert") && s.path("meanElementBytes").asDouble() > 0) {
        converted = s.path("meanElementBytes").asDouble();
      }
    }
    JsonNode write = steady.path(WRITE_FIELD);
    JsonNode model = write.get("warehouseModel");
    return new StudyRow(scenario, StudyFigures.forScenario(scenario).map(StudyFigures.Run::run).orElse(null),
        conf.path("writeMethod").asText("n/a"), conf.path("formatToStore").asText("n/a"), keys(conf),
        search == null ? null : search.path("ingestion").path("maxSustainedEventsPerSec").asDouble(0),
        steadyRate, ing.path("eventsPerSec").asDouble(),
        events > 0 && cpu > 0 ? cpu / events * 1e6 : null,
        cpu > 0 ? ing.path("megabytesPerSecPerIngestCore").asDouble() : null,
        lat.path("p50").asDouble(), lat.path("p99").asDouble(),
        steady.path("shuffle").path("bytesRead").asLong(), steady.path("shuffle").path("bytesShuffled").asLong(),
        sum(search, steady, "lost"), sum(search, steady, "duplicated"), sum(search, steady, "failed"),
        walls, fromRead, converted, activeKeysMax(search, steady), longOrNull(write.get("connectionsOpened")),
        write.has("appendsPerConnection") ? write.path("appendsPerConnection").asDouble() : null,
        longOrNull(write.get("maxRequestsInFlight")), model == null || model.isNull() ? null : model,
        search == null ? null : search.path("run").path("directory").asText(null),
        steady.path("run").path("directory").asText(null));
  }

  /** CPU-seconds per million events is also the cores that a million events a second keep busy. */
  public Double coresForMillionPerSec() {
    return cpuSecondsPerMillionEvents;
  }

  /** Bytes shuffled per byte read (null when nothing was read). */
  public Double shuffledPerRead() {
    return bytesRead > 0 ? (double) bytesShuffled / bytesRead : null;
  }

  public boolean exactlyOnce() {
    return writeMethod.equals("STORAGE_WRITE_API");
  }

  private static String keys(JsonNode conf) {
    return switch (conf.path("writeMethod").asText()) {
      case "STREAMING_INSERTS" -> conf.path("autoSharding").asBoolean() ? "auto"
          : conf.path("numStreamingKeys").asText("n/a");
      case "STORAGE_WRITE_API" -> {
        String streams = conf.path("numStorageWriteApiStreams").asText("0");
        yield "streams " + (streams.equals("0") ? "auto" : streams);
      }
      default -> conf.path("useConnectionPool").asBoolean() ? "none (pool)" : "none";
    };
  }

  private static long sum(JsonNode search, JsonNode steady, String field) {
    return (search == null ? 0 : search.path("table").path(field).asLong()) + steady.path("table").path(field).asLong();
  }

  private static Long longOrNull(JsonNode v) {
    return v == null || !v.isNumber() ? null : v.asLong();
  }

  private static Integer activeKeysMax(JsonNode search, JsonNode steady) {
    Integer max = null;
    for (JsonNode run : new JsonNode[] {search, steady}) {
      if (run == null) continue;
      for (JsonNode row : run.path("series")) {
        JsonNode v = row.get(ACTIVE_KEYS_SERIES);
        if (v != null && v.isNumber()) max = Math.max(max == null ? 0 : max, v.asInt());
      }
    }
    return max;
  }
}
