package io.streamlab.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.report.StudyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The study's rows, verdicts and table from results.json trees, without running anything. */
class StudyShapeTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  @TempDir Path dir;

  /** A steady run's results.json with the fields the study reads. */
  private static JsonNode steady(String writeMethod, double cpuSeconds, double p99, long read, long shuffled,
      List<Map<String, Object>> series) {
    Map<String, Object> root = new HashMap<>();
    root.put("run", Map.of("directory", "/tmp/x"));
    root.put("configuration", Map.of("writeMethod", writeMethod, "formatToStore", "AVRO_GENERIC_RECORD",
        "numStreamingKeys", "50", "autoSharding", "false"));
    root.put("ingestion", Map.of("eventsPerSec", 1000.0, "writingSeconds", 10.0, "cpuSeconds", cpuSeconds,
        "megabytesPerSecPerIngestCore", 3.5));
    root.put("latencyMillis", Map.of("p50", p99 / 2, "p99", p99));
    root.put("shuffle", Map.of("bytesRead", read, "bytesShuffled", shuffled));
    root.put("table", Map.of("lost", 0, "duplicated", 0, "failed", 0));
    root.put("stages", List.of(Map.of("stage", "read", "elements", 10_000, "wallSeconds", 1.5, "meanElementBytes", 1100.0),
        Map.of("stage", "convert", "elements", 10_000, "wallSeconds", 0.5, "meanElementBytes", 0.0,
            "fromReadMeanMillis", 0.25),
        Map.of("stage", "shuffle", "elements", 0, "wallSeconds", 0.0, "meanElementBytes", 0.0)));
    root.put("series", series);
    return MAPPER.valueToTree(root);
  }

  private static JsonNode search(double sustained) {
    return MAPPER.valueToTree(Map.of("ingestion", Map.of("maxSustainedEventsPerSec", sustained),
        "table", Map.of("lost", 0, "duplicated", 0, "failed", 0), "run", Map.of("directory", "/tmp/s")));
  }

  @Test
  void rowReadsTheFiguresAndLeavesWhatIsNotRecordedOpen() {
    StudyRow r = StudyRow.of("7-at-least-once-avro", search(12_000),
        steady("STORAGE_API_AT_LEAST_ONCE", 10, 200, 1_000_000, 0, List.of(Map.of("t", 1, "phase", "measure"))), 5_000);
    assertEquals(7, r.studyRun());
    assertEquals(12_000, r.highestSustainedPerSec());
    assertEquals(1_000, r.cpuSecondsPerMillionEvents(), 1e-9, "10 CPU-s for 10,000 events");
    assertEquals(0.0, r.shuffledPerRead());
    assertEquals(Map.of("read", 1.5, "convert", 0.5), r.stageWallSeconds(), "stages that did nothing are left out");
    assertNull(r.convertedElementBytes(), "0 bytes after convert means not recorded");
    assertEquals(Map.of("convert", 0.25), r.stageMillisFromRead(), "stages that do not record it are left out");
    assertNull(r.activeKeysMax(), "no activeKeys series");
    assertNull(r.warehouseModel());
    String table = StudyTable.render(List.of(r), StudyShape.judge(List.of(r)));
    assertTrue(table.lines().anyMatch(l -> l.startsWith("7-at-least-once-avro") && l.endsWith("n/a")),
        "no warehouse model figures in results.json: n/a; " + table);
    assertTrue(table.contains("convert ms after read"), table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("7-at-least-once-avro") && l.contains(" 160")),
        "the study's 40 workers x 4 vCPU beside the row: " + table);
  }

  @Test
  void writeFiguresAndTheModelAreReadWhenARunRecordsThem() {
    JsonNode steady = steady("STREAMING_INSERTS", 10, 200, 1, 1,
        List.of(Map.of("t", 1, "activeKeys", 4), Map.of("t", 2, "activeKeys", 9)));
    ((com.fasterxml.jackson.databind.node.ObjectNode) steady).set("write", MAPPER.valueToTree(Map.of(
        "connectionsOpened", 3, "appendsPerConnection", 40.0, "maxRequestsInFlight", 9,
        "warehouseModel", Map.of("kind", "bigquery", "isModel", true, "roundTripP50Millis", 75.0))));
    StudyRow r = StudyRow.of("3-auto-sharding", null, steady, 5_000);
    assertEquals(9, r.activeKeysMax());
    assertEquals(3, r.connectionsOpened());
    assertEquals(9, r.maxRequestsInFlight());
    assertNull(r.highestSustainedPerSec(), "no search");
    String table = StudyTable.render(List.of(r), StudyShape.judge(List.of(r)));
    assertTrue(table.contains("MODEL") && table.contains("kind=bigquery") && table.contains("roundTripP50Millis=75.0"),
        "the model's parameters beside its figures: " + table);
  }

  @Test
  void verdictsFollowTheFiguresAndAreNotAppliedToMissingRuns() {
    JsonNode si = steady("STREAMING_INSERTS", 30, 500, 1_000, 900, List.of());
    StudyRow run1 = StudyRow.of("1-default", search(10_000), si, 5_000);
    StudyRow run2 = StudyRow.of("2-512-keys", search(11_000), si, 5_000);
    StudyRow run4 = StudyRow.of("4-storage-write-api", search(10_000),
        steady("STORAGE_WRITE_API", 20, 12_000, 1_000, 300, List.of()), 5_000);
    StudyRow run7 = StudyRow.of("7-at-least-once-avro", search(10_000),
        steady("STORAGE_API_AT_LEAST_ONCE", 10, 250, 1_000, 0, List.of()), 5_000);
    Map<String, String> answers = new HashMap<>();
    for (StudyShape.Verdict v : StudyShape.judge(List.of(run1, run2, run4, run7))) answers.put(v.claim(), v.answer());
    assertEquals("no", answers.get("512 keys sustain clearly more than 50 keys (run 2 >= 1.2 x run 1)"), "1.1x is not clearly more");
    assertEquals("n/a", answers.get("auto-sharding sustains at least as much as 512 keys (run 3 >= 0.95 x run 2)"));
    assertEquals("yes", answers.get("run 4 p99 > 10 s (every row waits up to the 10 s trigger)"));
    assertEquals("yes", answers.get("run 7 p99 < 300 ms"));
    assertEquals("no", answers.get("exactly-once runs shuffle about their read volume (>= 0.5 x read)"), "0.3x");
    assertEquals("yes", answers.get("at-least-once appends shuffle close to nothing (< 0.01 x read)"));
    assertEquals("yes", answers.get("CPU per event: STREAMING_INSERTS > STORAGE_WRITE_API > STORAGE_API_AT_LEAST_ONCE"));
  }

  @Test
  void pageHasARowPerRunChartsOverTimeAndSaysWhatIsNotRecorded() throws Exception {
    List<Map<String, Object>> series = List.of(Map.of("t", 1, "phase", "warm-up", "ingestedPerSec", 10),
        Map.of("t", 2, "phase", "measure", "ingestedPerSec", 900, "p99Millis", 120),
        Map.of("t", 3, "phase", "measure", "ingestedPerSec", 1000, "p99Millis", 140));
    JsonNode a = steady("STORAGE_API_AT_LEAST_ONCE", 10, 200, 1_000, 0, series);
    JsonNode b = steady("STORAGE_WRITE_API", 20, 1_200, 1_000, 900, series);
    List<StudyRow> rows = List.of(StudyRow.of("6-avro", search(9_000), b, 5_000),
        StudyRow.of("7-at-least-once-avro", search(12_000), a, 5_000));
    JsonNode study = StudyJson.tree(Map.of("quick", true), rows, StudyShape.judge(rows));
    Map<String, JsonNode> steadies = new LinkedHashMap<>();
    steadies.put("6-avro", b);
    steadies.put("7-at-least-once-avro", a);
    String html = Files.readString(StudyReport.write(study, Map.of(), steadies, dir));
    assertTrue(html.contains("<td>6-avro</td>") && html.contains("<td>7-at-least-once-avro</td>"), html);
    assertTrue(html.contains("Steady window: ingested events/s over time") && html.contains("<polyline"), html);
    assertTrue(html.contains("n/a: these runs do not record the write stage's active keys or shards"), html);
    assertEquals(168, study.path("rows").get(0).path("study").path("cores").asInt(), "42 workers x 4 vCPU");
  }
}
