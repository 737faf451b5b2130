package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.cli.Main;
import io.streamlab.store.postgres.TestPostgres;
import io.streamlab.testing.FailedRuns;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's scenario: two drains into the same PostgreSQL database, the first at-least-once, the
 * second STORAGE_WRITE_API. Each writes a table of its own, so the second neither counts the
 * first's rows as its own nor writes exactly-once into a table without the identity key; forcing
 * it into the first's table (--table) is refused; {@code streamlab clean} lists both tables, then
 * removes them with --yes, and never lists a table the user named.
 */
class IsolatedRunsTest {
  private static final int EVENTS = 3_000;
  private static final Pattern TABLE_LINE = Pattern.compile("\\[streamlab\\] table (\\S+) in postgres:");
  @TempDir Path dir;

  private record Outcome(int code, String out, String err) {}

  @Test
  void twoDrainsIntoOneDatabaseNeverShareATable() throws Exception {
    // A database of its own: clean lists every cluster-run schema of a database, and other tests share "test".
    String probe = TestPostgres.freshSchemaUrl("sl_iso"); // starts the server if needed
    String db = "sl_iso_" + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
    String server = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    execute(server, "CREATE DATABASE " + db);
    String url = "jdbc:postgresql://127.0.0.1:5432/" + db + "?user=postgres";
    try {
      drainTwiceAndClean(url);
    } catch (AssertionError e) {
      throw FailedRuns.keep(dir, "IsolatedRunsTest", e);
    } finally {
      execute(server, "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
      TestPostgres.drop(probe);
    }
  }

  /** The scenario: two drains, a refused third, clean's dry run and clean --yes. */
  private void drainTwiceAndClean(String url) throws Exception {
    Outcome first = cli("run", "--mode=drain", "--preload=" + EVENTS, "--preloadWarmup=0", "--parallelism=1",
        "--store=postgres", "--jdbcUrl=" + url, "--runDir=" + dir.resolve("first"));
    assertEquals(0, first.code(), first.out() + first.err());
    String firstTable = table(first);
    assertSummary(dir.resolve("first"), "at-least-once");

    Outcome second = cli("run", "--mode=drain", "--preload=" + EVENTS, "--preloadWarmup=0", "--parallelism=1",
        "--writeMethod=STORAGE_WRITE_API", "--store=postgres", "--jdbcUrl=" + url, "--runDir=" + dir.resolve("second"));
    assertEquals(0, second.code(), second.out() + second.err());
    String secondTable = table(second);
    assertNotEquals(firstTable, secondTable);
    // Same seed, same producer ids and sequences: had it read the first's table, every row would be a duplicate.
    assertSummary(dir.resolve("second"), "exactly-once");
    assertEquals(EVENTS, count(url, firstTable));
    assertEquals(EVENTS, count(url, secondTable));

    Outcome forced = cli("run", "--mode=drain", "--preload=" + EVENTS, "--preloadWarmup=0", "--parallelism=1",
        "--writeMethod=STORAGE_WRITE_API", "--store=postgres", "--jdbcUrl=" + url, "--table=" + firstTable,
        "--runDir=" + dir.resolve("forced"));
    assertEquals(Verdict.RUN_FAILED, forced.code(), forced.out() + forced.err());
    assertTrue(forced.err().contains("table '" + firstTable + "' exists without the identity key"), forced.err());
    assertEquals(EVENTS, count(url, firstTable), "the refused run wrote nothing");

    execute(url, "CREATE TABLE my_events (x int)");
    Path runsDir = Files.createDirectories(dir.resolve("runs"));
    Path oldRun = Files.createDirectories(runsDir.resolve("20261123-080101-ab12"));
    Files.writeString(oldRun.resolve("summary.txt"), "SUMMARY");
    Path mine = Files.createDirectories(runsDir.resolve("my-notes"));

    Outcome dry = cli("clean", "--runsDir=" + runsDir, "--jdbcUrl=" + url);
    assertEquals(0, dry.code(), dry.out() + dry.err());
    for (String t : List.of(firstTable, firstTable + "_failed", secondTable, secondTable + "_failed")) {
      assertEquals(tableExists(url, t), dry.out().contains(t + "\n"), t + " listed if it exists:\n" + dry.out());
    }
    Matcher listed = Pattern.compile("clean: (\\d+) left behind").matcher(dry.out());
    assertTrue(listed.find(), dry.out());
    assertTrue(dry.out().contains(oldRun.toString()), dry.out());
    assertFalse(dry.out().contains("my_events"), dry.out());
    assertFalse(dry.out().contains("my-notes"), dry.out());
    assertTrue(dry.out().contains("dry run: nothing removed"), dry.out());
    assertEquals(EVENTS, count(url, firstTable), "a dry run removes nothing");
    assertTrue(Files.exists(oldRun));

    Outcome removed = cli("clean", "--runsDir=" + runsDir, "--jdbcUrl=" + url, "--yes");
    assertEquals(0, removed.code(), removed.out() + removed.err());
    assertTrue(removed.out().contains(listed.group(1) + " removed, 0 failed"), removed.out());
    assertFalse(tableExists(url, firstTable));
    assertFalse(tableExists(url, secondTable));
    assertFalse(tableExists(url, secondTable + "_failed"));
    assertTrue(tableExists(url, "my_events"), "a table the user named stays");
    assertFalse(Files.exists(oldRun));
    assertTrue(Files.exists(mine));
    assertTrue(cli("clean", "--runsDir=" + runsDir, "--jdbcUrl=" + url).out().contains("clean: 0 left behind"));
  }

  @Test
  void cleanRemovesRunTopicsOnly() throws Exception {
    try (io.streamlab.broker.EmbeddedKafka kafka = io.streamlab.broker.EmbeddedKafka.start(dir.resolve("kafka"))) {
      String bootstrap = kafka.bootstrapServers();
      String runTopic = "events-20261123-080101-ab12";
      io.streamlab.broker.Topics.create(bootstrap, runTopic, 1);
      io.streamlab.broker.Topics.create(bootstrap, "my-events", 1);
      Path noRuns = dir.resolve("no-runs");
      Outcome dry = cli("clean", "--runsDir=" + noRuns, "--bootstrapServers=" + bootstrap);
      assertEquals(0, dry.code(), dry.out() + dry.err());
      assertTrue(dry.out().contains("clean: 1 left behind") && dry.out().contains(runTopic), dry.out());
      assertFalse(dry.out().contains("my-events"), dry.out());
      Outcome removed = cli("clean", "--runsDir=" + noRuns, "--bootstrapServers=" + bootstrap, "--yes");
      assertTrue(removed.out().contains("1 removed, 0 failed"), removed.out() + removed.err());
      try (var admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of("bootstrap.servers", bootstrap))) {
        java.util.Set<String> left = admin.listTopics().names().get();
        // clean waited for the deletion; the broker's listing follows once its metadata has caught
        // up, which a loaded machine can delay by seconds: asked again, for up to 2 minutes
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (!left.equals(java.util.Set.of("my-events")) && System.nanoTime() < deadline) {
          Thread.sleep(200);
          left = admin.listTopics().names().get();
        }
        assertEquals(java.util.Set.of("my-events"), left);
      }
    }
  }

  @Test
  void runArtifactNamesAreFoundAgain() {
    String runId = "20261123-080101-ab12";
    assertTrue(RunArtifacts.TABLE.matcher(RunArtifacts.table(runId)).matches());
    assertTrue(RunArtifacts.TABLE.matcher(RunArtifacts.table(runId) + "_failed").matches());
    assertTrue(RunArtifacts.SCHEMA.matcher(RunArtifacts.schema(runId)).matches());
    assertTrue(RunArtifacts.TOPIC.matcher("events-" + runId).matches());
    assertTrue(RunArtifacts.RUN_DIRECTORY.matcher(runId).matches());
    for (String named : List.of("events", "events_failed", "sl_run_events", "my_table")) {
      assertFalse(RunArtifacts.TABLE.matcher(named).matches(), named);
    }
    assertFalse(RunArtifacts.TOPIC.matcher("events").matches());
  }

  private static void assertSummary(Path runDir, String promise) throws Exception {
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertTrue(summary.contains("generated=" + EVENTS + " ingested=" + EVENTS + " "), summary);
    assertTrue(summary.contains(" lost=0 duplicated=0 "), summary);
    assertTrue(summary.contains(" unexpected=0 promise=" + promise + " verdict=OK exit=0"), summary);
  }

  private static String table(Outcome o) {
    Matcher m = TABLE_LINE.matcher(o.out());
    assertTrue(m.find(), o.out());
    assertTrue(RunArtifacts.TABLE.matcher(m.group(1)).matches(), m.group(1));
    return m.group(1);
  }

  private static Outcome cli(String... args) {
    StringWriter out = new StringWriter(), err = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    java.io.PrintStream stdout = System.out;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setOut(new java.io.PrintStream(captured, true)); // run prints its progress and summary there
    try {
      int code = cl.execute(args);
      return new Outcome(code, captured.toString() + out, err.toString());
    } finally {
      System.setOut(stdout);
      stdout.print(captured);
    }
  }

  private static long count(String url, String table) throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + table + "\"")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static boolean tableExists(String url, String table) throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
            + "current_schema() AND table_name = '" + table + "'")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  private static void execute(String url, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
