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
 * Kafka offsets committed at its last completed checkpoint. Each test also proves the kills
 * caused replays, else "nothing lost, nothing duplicated" would prove nothing: STORAGE_WRITE_API
 * must end with nothing lost and nothing duplicated in the table although events were read again
 * and rows appended again that the identity key ignored, on DuckDB and on PostgreSQL; the
 * at-least-once method must lose nothing, and count the duplicates the replays wrote where its
 * appends commit on their own.
 */
class ChaosTest {
  private static final int KILLS = 3;
  @TempDir Path dir;

  @Test
  void exactlyOnceSurvivesKillsOnDuckDb() throws Exception {
    assertExactlyOnceAcrossReplays(run("eo-duckdb", "--writeMethod=STORAGE_WRITE_API"));
  }

  @Test
  void exactlyOnceSurvivesKillsOnPostgres() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_chaos");
    try {
      assertExactlyOnceAcrossReplays(
          run("eo-postgres", "--writeMethod=STORAGE_WRITE_API", "--store=postgres", "--jdbcUrl=" + url));
    } finally {
      TestPostgres.drop(url);
    }
  }

  /**
   * The other tests run streamlab's own reader (the default on Flink); this one Beam's KafkaIO, what
   * Dataflow runs: a restarted process starts from the offsets its predecessors' finalized marks
   * committed, moved back by RestartRewind, with either reader.
   */
  @Test
  void exactlyOnceSurvivesKillsWithKafkaIOsReader() throws Exception {
    assertExactlyOnceAcrossReplays(run("eo-duckdb-kafkaio", "--writeMethod=STORAGE_WRITE_API", "--kafkaReader=KAFKAIO"));
  }

  /**
   * The ratio's exactly-once path as STORE_ROW: untriggered (no shuffle), so the COPY rows the
   * decode made reach PostgreSQL as bytes, and a replay's rows go through the merge as bytes too.
   * As with --commitPerBundle below, a kill may land right after a checkpoint, so replays are not
   * required: what a wrong row or offset would break shows as lost or duplicated rows either way.
   */
  @Test
  void exactlyOnceSurvivesKillsOnPostgresAsStoreRows() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_chaos_rows");
    try {
      assertNothingLostOrDuplicatedAcrossKills(run("eo-postgres-store-rows", "--writeMethod=STORAGE_WRITE_API",
          "--triggeringFrequencySec=0", "--formatToStore=STORE_ROW", "--store=postgres", "--jdbcUrl=" + url));
    } finally {
      TestPostgres.drop(url);
    }
  }

  /**
   * --commitPerBundle: each bundle's appends one DuckDB transaction (bundles of up to a second, so
   * the kills find transactions open). A kill mostly lands inside a bundle and takes its open
   * transaction with it, so the replay usually meets no row of it in the table: unlike the tests
   * above, rows ignored by the key are not required here (a kill between a bundle's commit and
   * the checkpoint's end makes some; DuckDbHeldAppendsTest covers a replay the key refuses).
   * Events read again are not required either: a process's rows count as written only at a
   * bundle's commit, so the kill, which waits for written rows, can land right after a checkpoint
   * committed the offsets of all it had read (a CI run on a loaded machine: three kills, 40,000
   * rows, 0 re-read). What the flag could break, rows of an open transaction whose offsets were
   * committed, shows as lost rows whether or not a replay happened.
   */
  @Test
  void exactlyOnceSurvivesKillsWithATransactionPerBundle() throws Exception {
    String summary = run("eo-duckdb-bundles", "--writeMethod=STORAGE_WRITE_API",
        "--triggeringFrequencySec=0", "--commitPerBundle", "--maxBundleTimeMills=1000");
    assertNothingLostOrDuplicatedAcrossKills(summary);
  }

  /**
   * Untriggered exactly-once into DuckDB, by default held while behind like at-least-once, into a
   * table without a key whose writer leaves out the identities it holds: a kill takes the open
   * transaction with it, and the replay finds the rows committed before it in the table. Events
   * read again are not required, as with --commitPerBundle above.
   */
  @Test
  void exactlyOnceSurvivesKillsWhenHeldWhileBehind() throws Exception {
    assertNothingLostOrDuplicatedAcrossKills(run("eo-duckdb-held", "--writeMethod=STORAGE_WRITE_API",
        "--triggeringFrequencySec=0"));
  }

  /**
   * The at-least-once default into DuckDB: a writer that is behind holds its appends in one
   * transaction until its bundle ends, which for a reader behind is mostly at a checkpoint
   * (WriteStage.holdsWhileBehind). A kill then mostly takes an open transaction with it, and the
   * replay writes those rows for the first time; it duplicates only rows committed after the last
   * completed checkpoint, often none, so duplicates are not required here (a CI run on a slow
   * machine, behind the whole run: 32,875 events read again, none duplicated). Lost rows are what
   * holding could break; the test below has the duplicates.
   */
  @Test
  void atLeastOnceLosesNothingAcrossKills() throws Exception {
    assertNothingLostAcrossReplays(run("alo-duckdb", "--writeMethod=STORAGE_API_AT_LEAST_ONCE"));
  }

  /**
   * Each append committed on its own (--holdWhileBehind=false): the rows a killed process committed
   * after its last completed checkpoint are in the table when the restarted one reads their events
   * again, so the replays write duplicates, which the summary counts and the promise allows.
   */
  @Test
  void atLeastOnceCountsTheDuplicatesItsReplaysWrite() throws Exception {
    String summary = run("alo-duckdb-every-append", "--writeMethod=STORAGE_API_AT_LEAST_ONCE", "--holdWhileBehind=false");
    assertNothingLostAcrossReplays(summary);
    assertTrue(figure(summary, "duplicated-in-table") > 0, "the replays wrote duplicates, counted: " + summary);
  }

  /** At-least-once after the kills: nothing lost although events were read again, and the verdict OK whatever it duplicated. */
  private static void assertNothingLostAcrossReplays(String summary) {
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(figure(summary, "re-read") > 0, "events were read again: " + summary);
    assertTrue(summary.endsWith(" promise=at-least-once verdict=OK exit=0"), "duplicates are allowed: " + summary);
  }

  /**
   * Nothing lost or duplicated in the table, although the kills made the ingestion read and append
   * rows again. Here the replays do not hang on when a kill lands (unlike --commitPerBundle's): a
   * kill waits until the process has written rows, and STORAGE_WRITE_API with a triggering
   * frequency holds rows across checkpoints, so every restarted process first moves the committed
   * offsets back by the most its write stage can hold (RestartRewind), more than this run's topic
   * holds: it reads the topic from its start and appends the killed processes' rows again.
   */
  private static void assertExactlyOnceAcrossReplays(String summary) {
    assertNothingLostOrDuplicatedAcrossKills(summary);
    assertTrue(figure(summary, "re-read") > 0, "events were read again after the kills: " + summary);
    assertTrue(figure(summary, "ignored-by-key") > 0, "replayed rows were appended again and ignored by the key: "
        + summary);
  }

  private static void assertNothingLostOrDuplicatedAcrossKills(String summary) {
    assertTrue(summary.contains(" lost=0 "), summary);
    assertEquals(0, figure(summary, "duplicated-in-table"), summary);
    assertTrue(summary.endsWith(" promise=exactly-once verdict=OK exit=0"), summary);
  }

  private static long figure(String summary, String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(" " + name + "=(\\d+)( |$)").matcher(summary);
    assertTrue(m.find(), name + " in " + summary);
    return Long.parseLong(m.group(1));
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
    String summary = Files.readString(runDir.resolve("summary.txt")).strip();
    assertEquals(0, code, "exit code; " + summary);
    assertTrue(summary.contains(" ingest-kills=" + KILLS + " "), summary);
    assertTrue(figure(summary, "generated") > 30_000, "the run generated events: " + summary);
    return summary;
  }
}
