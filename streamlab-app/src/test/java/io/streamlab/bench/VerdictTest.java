package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.Verdict.Promise;
import io.streamlab.cli.Main;
import io.streamlab.formats.EventHeaders;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import io.streamlab.store.postgres.TestPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict and exit code of a run, from real tables (a DuckDB file, a PostgreSQL schema) that
 * hold crafted losses, duplicates, strangers and dead letters: exactly-once fails on any duplicate
 * or loss, at-least-once fails on loss only and shows its duplicates, dead letters apart.
 */
class VerdictTest {
  private static final Schema ROW = TableVerifierTest.ROW;
  /** Producer 0 sent sequences 0..9. */
  private static final Map<Integer, Long> SENT = Map.of(0, 10L);

  @TempDir Path dir;

  /** What the crafted table holds, beside the generator's 0:0..0:9. */
  private record Craft(String name, List<Long> missing, List<Long> twice, List<Long> strangers, List<Long> deadLetters) {}

  private static final Craft CLEAN = new Craft("clean", List.of(), List.of(), List.of(), List.of());
  private static final Craft DUPLICATES = new Craft("dups", List.of(), List.of(2L, 5L), List.of(), List.of());
  private static final Craft LOSS = new Craft("loss", List.of(7L), List.of(), List.of(), List.of());
  private static final Craft LOSS_AND_DUPLICATES = new Craft("lossdups", List.of(7L), List.of(2L), List.of(), List.of());
  private static final Craft STRANGERS = new Craft("strangers", List.of(), List.of(), List.of(99L), List.of());
  /** 0:4 only dead-lettered, twice (a replay): delivered, and its repeat is not a table duplicate. */
  private static final Craft DEAD_LETTERS = new Craft("dead", List.of(4L), List.of(), List.of(), List.of(4L, 4L));

  @Test
  void verdictsOnDuckDb() throws Exception {
    assertVerdicts(name -> StoreSpec.duckdb(dir.resolve(name + ".duckdb")));
  }

  @Test
  void verdictsOnPostgres() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_verdict");
    try {
      assertVerdicts(name -> StoreSpec.postgres(url, null));
    } finally {
      TestPostgres.drop(url);
    }
  }

  private void assertVerdicts(java.util.function.Function<String, StoreSpec> store) throws Exception {
    assertVerdict(store, CLEAN, Promise.EXACTLY_ONCE, Verdict.OK);
    assertVerdict(store, CLEAN, Promise.AT_LEAST_ONCE, Verdict.OK);
    assertVerdict(store, DUPLICATES, Promise.EXACTLY_ONCE, Verdict.DUPLICATED);
    assertVerdict(store, DUPLICATES, Promise.AT_LEAST_ONCE, Verdict.OK);
    assertVerdict(store, LOSS, Promise.EXACTLY_ONCE, Verdict.LOST);
    assertVerdict(store, LOSS, Promise.AT_LEAST_ONCE, Verdict.LOST);
    assertVerdict(store, LOSS_AND_DUPLICATES, Promise.EXACTLY_ONCE, Verdict.LOST);
    assertVerdict(store, LOSS_AND_DUPLICATES, Promise.AT_LEAST_ONCE, Verdict.LOST);
    assertVerdict(store, STRANGERS, Promise.EXACTLY_ONCE, Verdict.UNEXPECTED);
    assertVerdict(store, STRANGERS, Promise.AT_LEAST_ONCE, Verdict.UNEXPECTED);
    assertVerdict(store, DEAD_LETTERS, Promise.EXACTLY_ONCE, Verdict.OK);
  }

  private void assertVerdict(java.util.function.Function<String, StoreSpec> store, Craft craft, Promise promise,
      int exitCode) throws Exception {
    String table = craft.name() + "_" + promise.name().toLowerCase();
    Verification v = craftAndVerify(store.apply(table), table, craft);
    RunResult r = result(v, promise);
    String what = craft + " " + promise + ": " + v;
    assertEquals(exitCode, r.exitCode(), what);
    assertEquals(exitCode == Verdict.OK, r.verdict().ok(), what);
    assertEquals(craft.twice().size(), v.duplicatedInTable(), what);
    assertEquals(craft.missing().size() - craft.deadLetters().stream().distinct().count(), v.lost(), what);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.print(new PrintStream(out, true));
    String printed = out.toString();
    String expectedLine = "verdict              " + (exitCode == Verdict.OK ? "OK" : "FAIL") + " ("
        + promise.label() + "): " + v.lost() + " lost, " + v.duplicatedInTable() + " duplicated in the table, "
        + v.unexpected() + " unexpected";
    assertTrue(printed.contains(expectedLine), "missing '" + expectedLine + "' in\n" + printed);
    assertTrue(printed.contains("(exit code " + exitCode + ")"), printed);
    assertTrue(r.summaryLine().endsWith(" verdict=" + (exitCode == Verdict.OK ? "OK" : "FAIL") + " exit=" + exitCode),
        r.summaryLine());
    if (!craft.deadLetters().isEmpty()) {
      assertEquals(1, v.failed(), "one event dead-lettered, counted once: " + what);
      assertEquals(craft.deadLetters().size() - 1, v.duplicatedDeadLetters(), "the dead letter's repeat, apart");
      assertEquals(SENT.get(0) - craft.missing().size(), v.tableRows(), what);
      assertTrue(printed.contains("rows in table        " + v.tableRows() + "  "), printed);
      assertTrue(printed.contains("dead letters         1 in {decode=1}"), printed);
      assertTrue(printed.contains("1 repeated by replays"), printed);
    }
  }

  private static Verification craftAndVerify(StoreSpec spec, String table, Craft craft) throws Exception {
    List<GenericRecord> rows = new ArrayList<>();
    for (long s = 0; s < SENT.get(0); s++) if (!craft.missing().contains(s)) rows.add(TableVerifierTest.row(0, s));
    for (long s : craft.twice()) rows.add(TableVerifierTest.row(0, s));
    for (long s : craft.strangers()) rows.add(TableVerifierTest.row(0, s));
    try (TableStore store = spec.open()) {
      store.createTableIfMissing(table, ROW);
      try (TableWriter w = store.openWriter(table, ROW)) {
        w.append(rows);
      }
      if (!craft.deadLetters().isEmpty()) {
        store.createTableIfMissing(DeadLetters.tableFor(table), DeadLetters.SCHEMA);
        try (TableWriter f = store.openWriter(DeadLetters.tableFor(table), DeadLetters.SCHEMA)) {
          for (long s : craft.deadLetters()) {
            f.append(List.of(DeadLetters.of(DeadLetters.Stage.DECODE, new IllegalArgumentException("bad"),
                new EventHeaders.Stamp(0, s, 1), null, new byte[] {1})));
          }
        }
      }
      try (Connection c = store.openQueryConnection()) {
        return TableVerifier.verify(c, table, SENT, Set.of(0));
      }
    }
  }

  private static RunResult result(Verification v, Promise promise) {
    return new RunResult(new RunInfo("t", "", RunMode.STEADY, "now", Map.of()), new GeneratorStats(), v, 0, 0,
        Duration.ZERO, 0, 1, new Histogram(3), 2, Map.of(), 0, List.of(), List.of(), List.of(), 0, 0,
        FigureSources.EMBEDDED, promise, io.streamlab.pipeline.IngestStatus.NONE, 0, 0, null, 0);
  }

  @Test
  void promiseComesFromTheWriteMethod() {
    assertEquals(Promise.EXACTLY_ONCE,
        Promise.of(new RunInfo("t", "", RunMode.STEADY, "now", Map.of("writeMethod", "STORAGE_WRITE_API"))));
    assertEquals(Promise.AT_LEAST_ONCE,
        Promise.of(new RunInfo("t", "", RunMode.STEADY, "now", Map.of("writeMethod", "STREAMING_INSERTS"))));
    assertEquals(Promise.AT_LEAST_ONCE,
        Promise.of(new RunInfo("t", "", RunMode.STEADY, "now", Map.of("writeMethod", "STORAGE_API_AT_LEAST_ONCE"))));
  }

  @Test
  void helpListsEveryExitCode() {
    StringWriter out = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    assertEquals(0, cl.execute("run", "--help"));
    String help = out.toString();
    assertTrue(help.contains("Exit codes"), help);
    for (var e : Verdict.EXIT_CODES.entrySet()) {
      assertTrue(help.replaceAll("\\s+", " ").contains(e.getKey() + " " + e.getValue().substring(0, 30)),
          "exit code " + e.getKey() + " in --help:\n" + help);
    }
  }
}
