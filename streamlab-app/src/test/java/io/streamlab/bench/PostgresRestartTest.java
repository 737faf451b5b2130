package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.streamlab.cli.Main;
import io.streamlab.cluster.LocalPostgres;
import io.streamlab.store.postgres.TestPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --chaos=restart-postgres} on an embedded run into this machine's PostgreSQL: the server
 * is restarted (pg_ctlcluster, fast mode: every connection cut) in the middle of the measurement
 * window, and the ingestion recovers by itself: writers wait the outage out and reconnect
 * (OutageWait, PgCopyWriter). STORAGE_WRITE_API must lose and duplicate nothing; the at-least-once
 * method must lose nothing. The server is shared with other tests: the outage lasts a second or
 * two, and it is brought back up whatever happens (LocalPostgres.restart, and again here).
 * Skipped where no local PostgreSQL can be had.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PostgresRestartTest {
  @TempDir Path dir;
  private String url;

  @Test
  void exactlyOnceSurvivesAPostgresRestart() throws Exception {
    String summary = run("eo", "--writeMethod=STORAGE_WRITE_API");
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
    assertTrue(summary.contains(" failed=0 "), "no row dead-lettered for the outage: " + summary);
  }

  @Test
  void atLeastOnceLosesNothingAcrossAPostgresRestart() throws Exception {
    String summary = run("alo", "--writeMethod=STORAGE_API_AT_LEAST_ONCE");
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" failed=0 "), "no row dead-lettered for the outage: " + summary);
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (!LocalPostgres.reachable()) LocalPostgres.restart(); // never leave the shared server down
    TestPostgres.drop(url);
  }

  private String run(String name, String... extra) throws Exception {
    url = TestPostgres.freshSchemaUrl("sl_pgrestart"); // skips the test where PostgreSQL cannot be had
    assumeTrue(Files.isDirectory(Path.of("/etc/postgresql")),
        "PostgreSQL runs here but not as a local pg_ctlcluster server: it cannot be restarted by this test");
    Path runDir = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("run", "--duration=20s", "--warmup=3s", "--ratePerSec=2000",
        "--progressInterval=5s", "--parallelism=2", "--chaos=restart-postgres", "--store=postgres",
        "--jdbcUrl=" + url, "--runDir=" + runDir));
    args.addAll(List.of(extra));
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(captured, true));
    int code;
    StringWriter err = new StringWriter();
    try {
      var cl = Main.commandLine();
      cl.setErr(new PrintWriter(err));
      code = cl.execute(args.toArray(String[]::new));
    } finally {
      System.setOut(original);
    }
    String out = captured.toString();
    original.print(out);
    assertTrue(out.contains("chaos: PostgreSQL restarted"), "the restart happened in the window: " + out + err);
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertEquals(0, code, "exit code; " + summary + err);
    long generated = Long.parseLong(summary.replaceAll("(?s).*generated=(\\d+).*", "$1"));
    assertTrue(generated > 30_000, "the run generated events: " + summary);
    String log = Files.readString(runDir.resolve("ingest.log"));
    assertTrue(log.contains("store unreachable") || log.contains("cannot connect"),
        "the writers saw the outage: " + log.lines().filter(l -> l.contains("streamlab")).toList());
    return summary;
  }
}
