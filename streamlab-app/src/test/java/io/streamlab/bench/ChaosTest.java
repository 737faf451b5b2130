package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.cli.Main;
import io.streamlab.store.postgres.TestPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code streamlab run --chaos=kill-ingest:3}: the ingestion process (embedded Flink) is killed
 * with kill -9 three times during the measurement window and restarted; it resumes from the
 * Kafka offsets committed at its last completed checkpoint. STORAGE_WRITE_API must end with
 * nothing lost and nothing duplicated, on DuckDB and on PostgreSQL; the at-least-once method
 * must lose nothing and report its duplicates.
 */
class ChaosTest {
  private static final int KILLS = 3;
  @TempDir Path dir;

  @Test
  void exactlyOnceSurvivesKillsOnDuckDb() throws Exception {
    String summary = run("eo-duckdb", "--writeMethod=STORAGE_WRITE_API");
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
  }

  @Test
  void exactlyOnceSurvivesKillsOnPostgres() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_chaos");
    try {
      String summary = run("eo-postgres", "--writeMethod=STORAGE_WRITE_API", "--store=postgres", "--jdbcUrl=" + url);
      assertTrue(summary.contains(" lost=0 "), summary);
      assertTrue(summary.contains(" duplicated=0 "), summary);
    } finally {
      TestPostgres.drop(url);
    }
  }

  @Test
  void atLeastOnceLosesNothingAcrossKills() throws Exception {
    String summary = run("alo-duckdb", "--writeMethod=STORAGE_API_AT_LEAST_ONCE");
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.matches("(?s).* duplicated=\\d+ .*"), "duplicates are reported: " + summary);
  }

  private String run(String name, String... extra) throws Exception {
    Path runDir = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("run", "--duration=20s", "--warmup=0s", "--ratePerSec=2000",
        "--progressInterval=5s", "--parallelism=2", "--chaos=kill-ingest:" + KILLS, "--runDir=" + runDir));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    int code = cl.execute(args.toArray(String[]::new));
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertEquals(0, code, "exit code; " + summary);
    assertTrue(summary.contains(" ingest-kills=" + KILLS + " "), summary);
    long generated = Long.parseLong(summary.replaceAll("(?s).*generated=(\\d+).*", "$1"));
    assertTrue(generated > 30_000, "the run generated events: " + summary);
    return summary;
  }
}
