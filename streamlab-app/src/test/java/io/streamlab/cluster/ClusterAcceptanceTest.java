package io.streamlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.cli.Main;
import io.streamlab.report.ResultsJson;
import io.streamlab.testing.ClusterProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8's acceptance: {@code streamlab cluster up} (Flink JobManager + two TaskManagers, three
 * Kafka brokers, each its own process, and PostgreSQL), then {@code streamlab run --cluster}
 * with parallelism 4 over two TaskManagers of 2 slots each (so both run subtasks) while one
 * TaskManager and one broker are killed with kill -9 and restarted (and, in the exactly-once run,
 * PostgreSQL is restarted too): STORAGE_WRITE_API must lose and duplicate nothing,
 * STORAGE_API_AT_LEAST_ONCE must lose nothing. Both runs must report real figures although the
 * pipeline ran in the TaskManagers: CPU of the TaskManager processes, payload bytes in line with
 * what was generated and MB/s over them, latency from the table, and (exactly-once, which
 * shuffles) non-zero bytes shuffled from Flink's metrics. Then {@code cluster down} must leave no
 * member process and no port.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ClusterAcceptanceTest {
  @TempDir static Path dir;
  private static Path clusterDir;
  /** Each run's PostgreSQL schema, by run name: dropped at the end. */
  private static final Map<String, String> schemaOf = new LinkedHashMap<>();

  @BeforeAll
  static void up() throws Exception {
    clusterDir = dir.resolve("cluster");
    CliRun r = cli("cluster", "up", "--dir=" + clusterDir, "--taskManagers=2", "--slots=2", "--brokers=3");
    assumeTrue(r.code != 2 || !r.out.contains("PostgreSQL is not reachable"), "no PostgreSQL here: " + r.out);
    assertEquals(0, r.code, r.out);
    ClusterState state = ClusterState.load(clusterDir);
    assertEquals(6, state.members().size(), "JobManager, 2 TaskManagers, 3 brokers: " + state.members());
    assertEquals(4, state.totalSlots());
    assertEquals(2, ClusterProbe.taskManagers(state.flinkMaster()));
    assertEquals(0, cli("cluster", "status", "--dir=" + clusterDir).code);
    // every member's listeners (Flink RPC, REST, BLOB, data port; Kafka) on loopback only
    for (String member : state.members()) {
      long pid = Long.parseLong(java.nio.file.Files.readString(clusterDir.resolve(member + ".pid")).trim());
      List<String> listening = io.streamlab.cli.LoopbackOnlyTest.listeners(ProcessHandle.of(pid).orElseThrow());
      assertTrue(!listening.isEmpty() && listening.stream().allMatch(io.streamlab.cli.LoopbackOnlyTest::isLoopback),
          member + " listens on " + listening);
    }
  }

  @Test
  @Order(1)
  void exactlyOnceAcrossTwoTaskManagersSurvivesTaskManagerAndBrokerKills() throws Exception {
    String summary = run("eo", "--writeMethod=STORAGE_WRITE_API", "--chaos=kill-taskmanager,kill-broker,restart-postgres");
    assertPromised("eo", summary, " lost=0 ", " duplicated=0 ");
    JsonNode r = ResultsJson.read(dir.resolve("eo"));
    double shuffled = r.path("shuffle").path("bytesShuffled").asDouble(), read = r.path("shuffle").path("bytesRead").asDouble();
    // The exactly-once write shuffles about what it reads (0.92x here without faults, 0.92-0.97x in
    // 5 runs with faults), but after a job restart Flink's REST metrics have been seen to
    // undercount it (0.10x, 0.21x in 2 runs with these faults; cause not established): only
    // non-zero and not inflated here.
    assertTrue(shuffled > 0 && shuffled < 5 * read, "the exactly-once write's shuffle, from Flink numBytesOut: "
        + r.path("shuffle") + "; ingestion log: " + streamlabLines(dir.resolve("eo").resolve("ingest.log")));
  }

  @Test
  @Order(2)
  void atLeastOnceAcrossTwoTaskManagersLosesNothing() throws Exception {
    String summary = run("alo", "--writeMethod=STORAGE_API_AT_LEAST_ONCE", "--chaos=kill-taskmanager,kill-broker");
    assertPromised("alo", summary, " lost=0 ");
  }

  @AfterAll
  static void downLeavesNothing() throws Exception {
    if (clusterDir == null || !Files.exists(clusterDir.resolve(ClusterState.FILE))) return;
    ClusterState state = ClusterState.load(clusterDir);
    List<Long> pids = new ArrayList<>();
    for (String m : state.members()) new MemberProcess(state, m).handle().ifPresent(h -> pids.add(h.pid()));
    CliRun r = cli("cluster", "down", "--dir=" + clusterDir);
    for (String s : schemaOf.values()) dropSchema(state.jdbcUrl(), s);
    assertEquals(0, r.code, r.out);
    for (long pid : pids) assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still alive");
    for (int port : state.ports()) assertFalse(io.streamlab.process.Ports.inUse(port), "port " + port + " still in use");
    assertEquals(1, cli("cluster", "status", "--dir=" + clusterDir).code, "status reports the members down");
  }

  private static String run(String name, String writeMethod, String chaos) throws Exception {
    Path runDir = dir.resolve(name);
    CliRun r = cli("run", "--cluster=" + clusterDir, "--duration=20s", "--warmup=5s", "--ratePerSec=2000",
        "--progressInterval=5s", "--drainTimeout=150s", chaos, "--runDir=" + runDir, writeMethod);
    String summary = Files.readString(runDir.resolve("summary.txt"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("currentSchema=(sl_run_\\w+)").matcher(r.out);
    if (m.find()) schemaOf.put(name, m.group(1));
    try {
      assertEquals(0, r.code, "exit code; " + summary);
      assertTrue(r.out.contains("chaos: taskmanager-2 (pid"), r.out);
      assertTrue(r.out.contains("chaos: kafka-3 (pid"), r.out);
      if (chaos.contains("restart-postgres")) assertTrue(r.out.contains("chaos: PostgreSQL restarted"), r.out);
      long generated = Long.parseLong(summary.replaceAll("(?s).*generated=(\\d+).*", "$1"));
      assertTrue(generated > 20_000, "the run generated events: " + summary);
      assertRealFigures(ResultsJson.read(runDir), r.out);
    } catch (AssertionError e) {
      throw kept(name, e);
    }
    return summary;
  }

  /** Asserts that the summary holds each of {@code promised}; if not, as {@link #kept}. */
  private static void assertPromised(String name, String summary, String... promised) throws Exception {
    List<String> broken = java.util.Arrays.stream(promised).filter(p -> !summary.contains(p)).toList();
    if (!broken.isEmpty()) throw kept(name, new AssertionError("not" + broken + " in " + summary));
  }

  /**
   * {@code failure}, once the run's directory and the cluster members' logs are kept under
   * target/failed-cluster-runs (the temporary directory goes with the test), with the dead
   * letters' stages and causes added to its message.
   */
  private static AssertionError kept(String name, AssertionError failure) {
    Path kept = Path.of("target", "failed-cluster-runs", name).toAbsolutePath();
    String where;
    try {
      copyFiles(dir.resolve(name), kept.resolve("run"));
      copyFiles(clusterDir, kept.resolve("cluster"));
      where = "logs kept in " + kept;
    } catch (Exception e) {
      where = "logs not kept: " + e;
    }
    String deadLetters;
    try {
      deadLetters = deadLetters(ClusterState.load(clusterDir).jdbcUrl(), schemaOf.get(name)).toString();
    } catch (Exception e) {
      deadLetters = "(not read: " + e + ")";
    }
    return new AssertionError(failure.getMessage() + "\ndead letters (stage, cause, count): " + deadLetters + "\n"
        + where, failure);
  }

  /** The regular files directly in {@code from} (the logs, not the brokers' data directories). */
  private static void copyFiles(Path from, Path to) throws java.io.IOException {
    Files.createDirectories(to);
    try (var files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** The dead letters of a run's schema, grouped by stage and the cause's first line. */
  private static List<String> deadLetters(String jdbcUrl, String schema) {
    List<String> found = new ArrayList<>();
    if (schema == null) return found;
    try (Connection c = DriverManager.getConnection(jdbcUrl); Statement st = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (var rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + schema
          + "' AND table_name LIKE '%\\_failed'")) {
        while (rs.next()) tables.add(rs.getString(1));
      }
      for (String t : tables) {
        try (var rs = st.executeQuery("SELECT stage, split_part(cause, E'\\n', 1), count(*) FROM " + schema + "." + t
            + " GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10")) {
          while (rs.next()) found.add(t + ": " + rs.getString(1) + ", " + rs.getString(2) + ", " + rs.getLong(3));
        }
      }
    } catch (Exception e) {
      found.add("(not read: " + e + ")");
    }
    return found;
  }

  /**
   * The pipeline ran in the TaskManagers, not in streamlab's processes: the figures must still be
   * real and plausible, and say where they came from.
   */
  private static void assertRealFigures(JsonNode r, String out) {
    JsonNode ing = r.path("ingestion"), lat = r.path("latencyMillis");
    assertTrue(ing.path("cpuSeconds").asDouble() > 1, "TaskManager CPU over a 20 s window at 2,000 events/s: " + ing);
    assertTrue(ing.path("megabytesPerSecPerIngestCore").asDouble() > 0, ing.toString());
    // the window's payload is what the generator sent in it (duplicates after a kill may add a little)
    double generatedBytes = r.path("generated").path("payloadBytes").asDouble();
    double ingestedBytes = ing.path("payloadBytes").asDouble();
    assertTrue(ingestedBytes > 0.9 * generatedBytes && ingestedBytes < 1.5 * generatedBytes,
        "payload bytes " + ingestedBytes + " vs generated " + generatedBytes);
    // MB/s is that payload over the window's writing span, which the recovery from the faults
    // stretches by however long this machine takes: a speed, so it has no lower bound here. It must
    // be reported, be that payload over that span, and not exceed what was generated in the window
    // (the span covers the window's 20 s of generation at least; a slow machine only lowers it).
    double mbPerSec = ing.path("megabytesPerSec").asDouble();
    double writingSeconds = ing.path("writingSeconds").asDouble();
    double generatedMbPerSec = generatedBytes / 1e6 / 20;
    assertTrue(Double.isFinite(mbPerSec) && mbPerSec > 0 && writingSeconds > 0, "MB/s reported: " + ing);
    assertEquals(ingestedBytes / 1e6 / writingSeconds, mbPerSec, 1e-9 * mbPerSec,
        "MB/s is the window's payload over its writing span: " + ing);
    assertTrue(mbPerSec < 2 * generatedMbPerSec, "MB/s " + mbPerSec + " vs generated " + generatedMbPerSec + " over 20 s");
    assertTrue(lat.path("p99").asDouble() > 0 && lat.path("p50").asDouble() <= lat.path("p99").asDouble()
        && lat.path("max").asDouble() < 600_000, "latency from the table: " + lat);
    assertTrue(lat.path("count").asLong() >= r.path("table").path("measuredRows").asLong() * 9 / 10, lat.toString());
    assertTrue(r.path("sources").path("cpu").asText().contains("TaskManager processes"), r.path("sources").toString());
    assertTrue(out.contains("figures from"), "the summary says where the figures come from");
  }

  /** streamlab's own lines of a log (the rest is Flink's), for failure messages. */
  private static List<String> streamlabLines(Path log) throws java.io.IOException {
    return Files.readAllLines(log).stream().filter(l -> l.contains("[streamlab]")).toList();
  }

  private record CliRun(int code, String out) {}

  private static CliRun cli(String... args) {
    StringWriter out = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(out));
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream original = System.out;
    System.setOut(new java.io.PrintStream(new TeeStream(original, captured), true));
    try {
      int code = cl.execute(args);
      return new CliRun(code, captured + out.toString());
    } finally {
      System.setOut(original);
    }
  }

  /** Output goes to the test log and is kept for assertions. */
  private static final class TeeStream extends java.io.OutputStream {
    private final java.io.OutputStream a, b;

    TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int x) throws java.io.IOException {
      a.write(x);
      b.write(x);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }
  }

  private static void dropSchema(String jdbcUrl, String schema) {
    try (Connection c = DriverManager.getConnection(jdbcUrl); Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (Exception ignored) {
      // best effort
    }
  }
}
