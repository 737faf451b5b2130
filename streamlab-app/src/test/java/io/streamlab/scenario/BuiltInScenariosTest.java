package io.streamlab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import io.streamlab.testing.KafkaBroker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every built-in scenario run as a user runs it ({@code streamlab run NAME...}: ingestion process,
 * generator, verification, results.json), shortened (a 4 s window at 500 events/s, 100 for
 * auto-sharding, without warm-up, three writers, one broker for all), each asserted on the
 * behaviour that sets it apart, read from its results.json: the keys 1 and 2 actually used, auto-sharding's shard count moving in 3, the
 * Storage Write API's trigger in the rows' latency (4: 10 s, 5 and 6: 1 s), the element each format
 * shuffles (4, 5, 6), no shuffle and a connection pool in 7, no warehouse model in quickstart; and
 * in every one, no row lost, none duplicated where the write method promises exactly-once. Latency
 * is asserted from below (a row cannot become visible before its trigger) and between triggers,
 * never as a speed: speed is the benchmark's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BuiltInScenariosTest {
  private static final int WRITERS = 3;
  private static final String AUTO_SHARDING = "3-auto-sharding";
  /** JVM options of the runs' ingestion processes (bench.IngestProcess). */
  private static final String INGEST_JAVA_OPTS = "streamlab.ingestJavaOpts";
  // static: JUnit injects an instance @TempDir field only after @BeforeAll (it was null: "--runDir=null")
  @TempDir static Path dir;
  /** One broker for the eight runs (each has a topic of its own) instead of one started per run. */
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  private final Map<String, JsonNode> results = new LinkedHashMap<>();

  @BeforeAll
  void runEveryScenario() throws Exception {
    // The ingestion processes compile with C1 alone: a run this short spends most of its CPU in the
    // JIT, and C2's code would come too late to matter (1-default, 4 s at 500 events/s: 32 -> 16
    // ingestion CPU-seconds, start-up 16 -> 9). Nothing here asserts a speed.
    System.setProperty(INGEST_JAVA_OPTS, "-XX:TieredStopAtLevel=1");
    List<String> names = new ArrayList<>();
    for (Scenario s : ScenarioCatalog.builtIn()) names.add(s.name());
    List<String> others = new ArrayList<>(names);
    others.remove(AUTO_SHARDING);
    run(others, 500);
    // Auto-sharding starts at a shard or two and doubles while requests queue, but a row is keyed
    // when it is read: at 500 events/s without a warm-up the first seconds' rows piled onto 1-4
    // shards (~13 one-row requests a second each at a 75 ms round trip) and took 100 s to drain.
    // At 100 events/s one shard still cannot keep up, so the count must still move.
    run(List.of(AUTO_SHARDING), 100);
    for (String name : names) {
      results.put(name, new ObjectMapper().readTree(dir.resolve("runs").resolve(name).resolve("results.json").toFile()));
    }
  }

  /** {@code streamlab run SCENARIOS...} shortened, each scenario into runs/NAME. */
  private void run(List<String> scenarios, int ratePerSec) {
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(scenarios);
    // No warm-up (time): the window then holds every stream's first batch, whose first rows wait the
    // whole trigger and the append's and commit's round trips, so p99 >= trigger however short the window.
    args.addAll(List.of("--runDir=" + dir.resolve("runs"), "--bootstrapServers=" + kafka.bootstrapServers(),
        "--warmup=0s", "--duration=4s", "--ratePerSec=" + ratePerSec, "--parallelism=" + WRITERS,
        "--progressInterval=5s"));
    var cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    assertEquals(0, cl.execute(args.toArray(String[]::new)), "exit code of " + args + "; " + err);
  }

  @AfterAll
  void clearIngestOptions() {
    System.clearProperty(INGEST_JAVA_OPTS);
  }

  @Test
  void everyBuiltInScenarioRanAndKeptItsPromise() {
    assertEquals(List.of("1-default", "2-512-keys", "3-auto-sharding", "4-storage-write-api", "5-beam-row", "6-avro",
        "7-at-least-once-avro", "quickstart"), List.copyOf(results.keySet()));
    results.forEach((name, r) -> {
      JsonNode table = r.path("table");
      assertTrue(table.path("expected").asLong() > 0, name + ": lost 0 of nothing proves nothing: " + table);
      assertEquals(0, table.path("lost").asLong(), name + ": lost " + table);
      assertEquals(0, table.path("unexpected").asLong(), name + ": " + table);
      if (writeMethod(r).equals("STORAGE_WRITE_API")) {
        assertEquals(0, table.path("duplicated").asLong(), name + ": exactly-once " + table);
        assertEquals(0, table.path("duplicatedInTable").asLong(), name + ": exactly-once " + table);
      }
      assertEquals("OK", r.path("verdict").path("verdict").asText(), name + ": " + r.path("verdict"));
      // the study's scenarios run against the warehouse model, a plain run does not
      assertEquals(name.equals("quickstart") ? "none" : "bigquery",
          r.path("write").path("warehouseModel").path("kind").asText(), name + ": warehouse model");
    });
  }

  @Test
  void runOneUsesItsFiftyKeysAndRunTwoManyMore() {
    JsonNode fifty = results.get("1-default").path("write"), many = results.get("2-512-keys").path("write");
    // ~2,000 rows onto 50 random keys: every key gets rows and sends requests, no 51st exists
    assertEquals(50, fifty.path("keysUsed").asLong(), "keys run 1 used: " + fifty);
    assertTrue(fifty.path("maxActiveKeys").asLong() <= 50, fifty.toString());
    assertTrue(fifty.path("maxRequestsInFlight").asLong() >= 1, fifty.toString());
    assertTrue(fifty.path("maxRequestsInFlight").asLong() <= 50, "at most one request in flight per key: " + fifty);
    // the same rows onto 512 keys: ~500 of them get a row (512 x (1 - e^-3.9)), so far more keys
    // send requests than run 1 has, and are recorded active at once
    assertTrue(many.path("keysUsed").asLong() > 400, "keys run 2 used: " + many);
    assertTrue(many.path("keysUsed").asLong() <= 512, many.toString());
    assertTrue(many.path("maxActiveKeys").asLong() > 50, "keys active at once: " + many);
    for (String fixed : List.of("1-default", "2-512-keys")) {
      assertTrue(autoShards(results.get(fixed)).isEmpty(), fixed + ": fixed keys, no auto-sharding recorded");
    }
  }

  @Test
  void autoShardingMovesItsShardCountWithTheLoad() {
    JsonNode r = results.get(AUTO_SHARDING);
    List<Long> counts = autoShards(r);
    // recorded every second while rows arrive, and moved: the count doubles while requests queue
    // behind their shard's previous one and shrinks while they do not (fixed keys record no count)
    assertTrue(counts.size() >= 3, "auto-shard count over time: " + counts);
    assertTrue(new LinkedHashSet<>(counts).size() >= 2, "the shard count moved: " + counts);
    assertTrue(r.path("write").path("maxActiveKeys").asLong() >= 1, r.path("write").toString());
  }

  @Test
  void theStorageWriteApiTriggerDelaysTheRows() {
    // a stream appends its batch once the trigger has passed since the batch's first row: the first
    // rows of the window wait the whole trigger and then the append's and commit's round trips
    for (var e : Map.of("4-storage-write-api", 10.0, "5-beam-row", 1.0, "6-avro", 1.0).entrySet()) {
      JsonNode r = results.get(e.getKey());
      assertEquals(e.getValue(), Double.parseDouble(r.path("configuration").path("triggeringFrequencySec").asText()));
      double p99 = r.path("latencyMillis").path("p99").asDouble();
      assertTrue(p99 >= e.getValue() * 1000, e.getKey() + ": p99 " + p99 + " ms, trigger " + e.getValue() + " s");
    }
    // and a 1 s trigger delays rows less than a 10 s one
    double tenSeconds = results.get("4-storage-write-api").path("latencyMillis").path("p50").asDouble();
    for (String oneSecond : List.of("5-beam-row", "6-avro")) {
      double p50 = results.get(oneSecond).path("latencyMillis").path("p50").asDouble();
      assertTrue(p50 < tenSeconds, oneSecond + ": p50 " + p50 + " ms, run 4's " + tenSeconds + " ms");
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
    assertTrue(bytesPerEvent.get("TABLE_ROW") > bytesPerEvent.get("BEAM_ROW"), bytesPerEvent.toString());
    assertNotEquals(bytesPerEvent.get("BEAM_ROW"), bytesPerEvent.get("AVRO_GENERIC_RECORD"), bytesPerEvent.toString());
  }

  @Test
  void atLeastOnceAppendsFromTheReadingStageThroughThePool() {
    JsonNode r = results.get("7-at-least-once-avro");
    assertEquals("STORAGE_API_AT_LEAST_ONCE", writeMethod(r));
    assertEquals(0, r.path("shuffle").path("bytesShuffled").asLong(), "no shuffle");
    assertTrue(r.path("shuffle").path("bytesRead").asLong() > 0);
    JsonNode w = r.path("write");
    long pool = Long.parseLong(r.path("configuration").path("connectionPoolSize").asText());
    // WRITERS writers would each open a connection of their own (quickstart below); the pool holds fewer
    assertTrue(pool < WRITERS, "the test needs more writers than pooled connections");
    assertTrue(w.path("connectionsOpened").asLong() >= 1 && w.path("connectionsOpened").asLong() <= pool, w.toString());
    assertTrue(w.path("appendsPerConnection").asDouble() > 1, w.toString());

    JsonNode quick = results.get("quickstart");
    assertEquals("STORAGE_API_AT_LEAST_ONCE", writeMethod(quick));
    assertTrue(!quick.path("configuration").path("useConnectionPool").asText().equals("true"), "quickstart: no pool");
    assertEquals(0, quick.path("shuffle").path("bytesShuffled").asLong(), "quickstart: no shuffle");
    assertTrue(quick.path("write").path("connectionsOpened").asLong() >= WRITERS, "one connection per writer without "
        + "the pool: " + quick.path("write"));
  }

  private static String writeMethod(JsonNode r) {
    return r.path("configuration").path("writeMethod").asText();
  }

  /** The auto-sharded shard count of every second that recorded one. */
  private static List<Long> autoShards(JsonNode r) {
    List<Long> counts = new ArrayList<>();
    for (JsonNode s : r.path("series")) {
      if (s.has("autoShards")) counts.add(s.path("autoShards").asLong());
    }
    return counts;
  }
}
