package io.streamlab.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code streamlab study --quick} on an exactly-once and an at-least-once scenario, end to end:
 * each a max-rate search and a steady window, the table, study.json and study.html. Asserts what
 * is about correctness of measurement (rows, shuffle volume per write method), never speed.
 */
class StudyAcceptanceTest {
  @TempDir Path dir;

  @Test
  void quickStudyWritesTheTableAndMeasuresShuffleAsTheWriteMethodPromises() throws Exception {
    var cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute("study", "--quick", "--scenarios=6-avro,7-at-least-once-avro", "--out=" + dir,
        "--parallelism=2");
    assertEquals(0, exit, "exit code; " + err);

    JsonNode study = new ObjectMapper().readTree(dir.resolve("study.json").toFile());
    Map<String, JsonNode> rows = new HashMap<>();
    for (JsonNode r : study.path("rows")) rows.put(r.path("scenario").asText(), r);
    assertEquals(2, study.path("rows").size(), study.path("rows").toString());
    JsonNode exactly = rows.get("6-avro"), atLeastOnce = rows.get("7-at-least-once-avro");
    for (JsonNode r : rows.values()) {
      assertEquals(0, r.path("lost").asLong(), r.toString());
      assertTrue(r.path("highestSustainedPerSec").isNumber(), "the search ran: " + r);
      assertTrue(r.path("cpuSecondsPerMillionEvents").asDouble() > 0, r.toString());
      assertTrue(r.path("eventsPerSec").asDouble() > 0, r.toString());
      for (String run : new String[] {"search", "steady"}) {
        Path results = dir.resolve(r.path("scenario").asText()).resolve(run).resolve("results.json");
        assertTrue(Files.isRegularFile(results), results + " written");
      }
    }
    assertEquals(6, exactly.path("study").path("run").asInt(), "the study's figures beside the row");
    assertEquals(0, exactly.path("duplicated").asLong(), "exactly-once: " + exactly);
    // the write stage's shuffle carries every row for exactly-once, none for at-least-once appends
    assertTrue(exactly.path("shuffledPerRead").asDouble() > 0.5, exactly.toString());
    assertTrue(atLeastOnce.path("shuffledPerRead").asDouble() < 0.01, atLeastOnce.toString());
    // both steady windows ran at the one common rate
    assertEquals(exactly.path("steadyRatePerSec").asDouble(), atLeastOnce.path("steadyRatePerSec").asDouble());

    Map<String, String> shape = new HashMap<>();
    for (JsonNode v : study.path("shape")) shape.put(v.path("claim").asText(), v.path("answer").asText());
    assertEquals("yes", shape.get("no row lost in any run"), shape.toString());
    assertEquals("n/a", shape.get("512 keys sustain clearly more than 50 keys (run 2 >= 1.2 x run 1)"),
        "runs not in the study are n/a, not judged: " + shape);

    String table = Files.readString(dir.resolve("study.txt"));
    assertTrue(table.lines().anyMatch(l -> l.startsWith("6-avro ")), table);
    assertTrue(table.lines().anyMatch(l -> l.startsWith("7-at-least-once-avro ")), table);
    assertTrue(table.contains("Does the lab reproduce the study's shape?"), table);
    String html = Files.readString(dir.resolve("study.html"));
    assertTrue(html.contains("<td>6-avro</td>") && html.contains("<td>7-at-least-once-avro</td>"), "a row per scenario");
    assertTrue(html.contains("<polyline"), "charts drawn with data");
  }
}
