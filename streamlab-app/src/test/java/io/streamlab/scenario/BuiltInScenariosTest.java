package io.streamlab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every built-in scenario run as a user runs it ({@code streamlab run NAME...}: broker, ingestion
 * process, generator, verification), shortened (a 6 s window at 2,000 events/s without warm-up, three
 * writers),
 * each asserted on the behaviour that sets it apart, read from its results.json: the keys and
 * requests in flight of 1 and 2, auto-sharding's shard count moving in 3, the Storage Write API's
 * trigger in every row's latency (4: 10 s, 5 and 6: 1 s), the element each format shuffles (4, 5,
 * 6), no shuffle and a connection pool in 7, no warehouse model in quickstart. Latency is asserted
 * only from below (a row cannot become visible before its trigger): speed is the benchmark's,
 * never a test's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Disabled("issue 13.7, written at the session's end and not yet run once (it needs ~5 min under the heavy lock): "
    + "run it, fix what it finds, then remove this line")
class BuiltInScenariosTest {
  private static final int WRITERS = 3;
  @TempDir Path dir;
  private final Map<String, JsonNode> results = new LinkedHashMap<>();

  @BeforeAll
  void runEveryScenario() throws Exception {
    List<String> names = new ArrayList<>();
    for (Scenario s : ScenarioCatalog.builtIn()) names.add(s.name());
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(names);
    args.addAll(List.of("--runDir=" + dir, "--warmup=0s", "--duration=6s", "--ratePerSec=2000",
        "--parallelism=" + WRITERS, "--progressInterval=3s"));
    var cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args.toArray(String[]::new));
    assertEquals(0, exit, "exit code of " + args + "; " + err);
    for (String name : names) {
      results.put(name, new ObjectMapper().readTree(dir.resolve(name).resolve("results.json").toFile()));
    }
  }

  @Test
  void everyBuiltInScenarioRanAndKeptItsPromise() {
    assertEquals(List.of("1-default", "2-512-keys", "3-auto-sharding", "4-storage-write-api", "5-beam-row", "6-avro",
        "7-at-least-once-avro", "quickstart"), List.copyOf(results.keySet()));
    results.forEach((name, r) -> {
      assertTrue(r.path("table").path("expected").asLong() > 0, name + ": events sent");
      assertEquals(0, r.path("table").path("lost").asLong(), name + ": lost");
      if (writeMethod(r).equals("STORAGE_WRITE_API")) {
        assertEquals(0, r.path("table").path("duplicatedInTable").asLong(), name + ": exactly-once");
      }
      // the study's scenarios run against the warehouse model, a plain run does not
      assertEquals(name.equals("quickstart") ? "none" : "bigquery",
          r.path("write").path("warehouseModel").path("kind").asText(), name + ": warehouse model");
    });
  }

  @Test
  void keysBoundTheRequestsInFlight() {
    JsonNode fifty = results.get("1-default").path("write"), many = results.get("2-512-keys").path("write");
    assertTrue(fifty.path("maxRequestsInFlight").asLong() >= 1, fifty.toString());
    assertTrue(fifty.path("maxRequestsInFlight").asLong() <= 50, "at most one request in flight per key: " + fifty);
    assertTrue(fifty.path("maxActiveKeys").asLong() <= 50, "50 keys: " + fifty);
    // 2,000 rows/s spread over 512 keys: far more keys send requests than run 1 has
    assertTrue(many.path("maxActiveKeys").asLong() > 50, "512 keys: " + many);
    assertTrue(many.path("maxActiveKeys").asLong() <= 512, many.toString());
  }

  @Test
  void autoShardingMovesItsShardCount() {
    JsonNode r = results.get("3-auto-sharding");
    TreeSet<Long> counts = new TreeSet<>();
    for (JsonNode s : r.path("series")) {
      if (s.path("activeKeys").asLong() > 0) counts.add(s.path("activeKeys").asLong());
    }
    // fixed keys are all active within the first second and stay so; auto-shards double while
    // batches leave full and shrink when they do not
    assertTrue(counts.size() >= 3, "active shards over time: " + counts);
  }

  @Test
  void theStorageWriteApiTriggerDelaysEveryBatch() {
    // a stream appends its batch once the trigger has passed since its first row: the first rows
    // of every batch wait the whole trigger, so the slowest percent waits nearly as long
    for (var e : Map.of("4-storage-write-api", 10.0, "5-beam-row", 1.0, "6-avro", 1.0).entrySet()) {
      JsonNode r = results.get(e.getKey());
      assertEquals(e.getValue(), Double.parseDouble(r.path("configuration").path("triggeringFrequencySec").asText()));
      double p99 = r.path("latencyMillis").path("p99").asDouble();
      assertTrue(p99 >= 0.9 * e.getValue() * 1000, e.getKey() + ": p99 " + p99 + " ms, trigger " + e.getValue() + " s");
    }
  }

  @Test
  void eachFormatShufflesItsOwnElement() {
    Map<String, Double> bytesPerEvent = new LinkedHashMap<>();
    for (String name : List.of("4-storage-write-api", "5-beam-row", "6-avro")) {
      JsonNode r = results.get(name);
      assertTrue(r.path("shuffle").path("bytesShuffled").asLong() > 0, name + ": exactly-once shuffles every row");
      bytesPerEvent.put(r.path("configuration").path("formatToStore").asText(),
          r.path("shuffle").path("bytesShuffled").asDouble() / r.path("table").path("rows").asDouble());
    }
    assertEquals(List.of("TABLE_ROW", "BEAM_ROW", "AVRO_GENERIC_RECORD"), List.copyOf(bytesPerEvent.keySet()));
    // a JSON row carries every field name; a Beam Row and an Avro record only the values, each coded its own way
    assertTrue(bytesPerEvent.get("TABLE_ROW") > bytesPerEvent.get("AVRO_GENERIC_RECORD"), bytesPerEvent.toString());
    assertNotEquals(bytesPerEvent.get("BEAM_ROW"), bytesPerEvent.get("AVRO_GENERIC_RECORD"), bytesPerEvent.toString());
  }

  @Test
  void atLeastOnceAppendsFromTheReadingStageThroughThePool() {
    JsonNode r = results.get("7-at-least-once-avro");
    assertEquals(0, r.path("shuffle").path("bytesShuffled").asLong(), "no shuffle");
    assertTrue(r.path("shuffle").path("bytesRead").asLong() > 0);
    JsonNode w = r.path("write");
    long pool = Long.parseLong(r.path("configuration").path("connectionPoolSize").asText());
    // WRITERS writers would each open a connection of their own; the pool holds fewer
    assertTrue(pool < WRITERS, "the test needs more writers than pooled connections");
    assertTrue(w.path("connectionsOpened").asLong() >= 1 && w.path("connectionsOpened").asLong() <= pool, w.toString());
    assertTrue(w.path("appendsPerConnection").asDouble() > 1, w.toString());
    assertEquals(0, results.get("quickstart").path("shuffle").path("bytesShuffled").asLong(), "quickstart: no shuffle");
  }

  private static String writeMethod(JsonNode r) {
    return r.path("configuration").path("writeMethod").asText();
  }
}
