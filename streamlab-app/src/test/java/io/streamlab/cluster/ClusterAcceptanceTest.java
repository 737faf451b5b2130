package io.streamlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.streamlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
 * TaskManager and one broker are killed with kill -9 and restarted: STORAGE_WRITE_API must lose
 * and duplicate nothing, STORAGE_API_AT_LEAST_ONCE must lose nothing. Then {@code cluster down}
 * must leave no member process and no port.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ClusterAcceptanceTest {
  @TempDir static Path dir;
  private static Path clusterDir;
  private static final List<String> schemas = new ArrayList<>();

  @BeforeAll
  static void up() throws Exception {
    clusterDir = dir.resolve("cluster");
    CliRun r = cli("cluster", "up", "--dir=" + clusterDir, "--taskManagers=2", "--slots=2", "--brokers=3");
    assumeTrue(r.code != 2 || !r.out.contains("PostgreSQL is not reachable"), "no PostgreSQL here: " + r.out);
    assertEquals(0, r.code, r.out);
    ClusterState state = ClusterState.load(clusterDir);
    assertEquals(6, state.members().size(), "JobManager, 2 TaskManagers, 3 brokers: " + state.members());
    assertEquals(4, state.totalSlots());
    assertEquals(2, new FlinkRest(state.flinkMaster()).taskManagers());
    assertEquals(0, cli("cluster", "status", "--dir=" + clusterDir).code);
  }

  @Test
  @Order(1)
  void exactlyOnceAcrossTwoTaskManagersSurvivesTaskManagerAndBrokerKills() throws Exception {
    String summary = run("eo", "--writeMethod=STORAGE_WRITE_API");
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
  }

  @Test
  @Order(2)
  void atLeastOnceAcrossTwoTaskManagersLosesNothing() throws Exception {
    String summary = run("alo", "--writeMethod=STORAGE_API_AT_LEAST_ONCE");
    assertTrue(summary.contains(" lost=0 "), summary);
  }

  @AfterAll
  static void downLeavesNothing() throws Exception {
    if (clusterDir == null || !Files.exists(clusterDir.resolve(ClusterState.FILE))) return;
    ClusterState state = ClusterState.load(clusterDir);
    List<Long> pids = new ArrayList<>();
    for (String m : state.members()) new MemberProcess(state, m).handle().ifPresent(h -> pids.add(h.pid()));
    CliRun r = cli("cluster", "down", "--dir=" + clusterDir);
    for (String s : schemas) dropSchema(state.jdbcUrl(), s);
    assertEquals(0, r.code, r.out);
    for (long pid : pids) assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still alive");
    for (int port : state.ports()) assertFalse(io.streamlab.process.Ports.inUse(port), "port " + port + " still in use");
    assertEquals(1, cli("cluster", "status", "--dir=" + clusterDir).code, "status reports the members down");
  }

  private static String run(String name, String writeMethod) throws Exception {
    Path runDir = dir.resolve(name);
    CliRun r = cli("run", "--cluster=" + clusterDir, "--duration=20s", "--warmup=5s", "--ratePerSec=2000",
        "--progressInterval=5s", "--drainTimeout=150s", "--chaos=kill-taskmanager,kill-broker",
        "--runDir=" + runDir, writeMethod);
    String summary = Files.readString(runDir.resolve("summary.txt"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("currentSchema=(sl_run_\\w+)").matcher(r.out);
    if (m.find()) schemas.add(m.group(1));
    assertEquals(0, r.code, "exit code; " + summary);
    assertTrue(r.out.contains("chaos: taskmanager-2 (pid"), r.out);
    assertTrue(r.out.contains("chaos: kafka-3 (pid"), r.out);
    long generated = Long.parseLong(summary.replaceAll("(?s).*generated=(\\d+).*", "$1"));
    assertTrue(generated > 20_000, "the run generated events: " + summary);
    return summary;
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
