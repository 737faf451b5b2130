package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.store.StoreSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** --store=bigquery from the command line: the spec it gives, and every user mistake as one line, exit 2, before any work. */
class BigQueryStoreOptionsTest {
  @TempDir Path dir;

  @Test
  void outputTableNamesTheStoreAndTheTable() {
    IngestCommand ingest = new IngestCommand();
    new CommandLine(ingest).setCaseInsensitiveEnumValuesAllowed(true)
        .parseArgs("--bootstrapServers=h:1", "--store=bigquery", "--outputTable=my-proj:lab.events_v2");
    StoreOptions store = BeamFlags.options(ingest.spec, StoreOptions.class);
    StoreSpec spec = StoreOptions.toSpec(store, Path.of("unused.duckdb"));
    assertEquals(StoreSpec.Kind.BIGQUERY, spec.kind());
    assertEquals("my-proj:lab.events_v2", spec.location());
    assertEquals("events_v2", StoreOptions.table(store, ingest.table), "--outputTable's table replaces --table");
    // a run's child is named the store by flags written from the options
    assertEquals(java.util.List.of("--outputTable=my-proj:lab.events_v2", "--store=bigquery"),
        BeamFlags.asArgs(StoreOptions.of(spec), StoreOptions.class));
  }

  @Test
  void userMistakesAreOneLineAndExitTwo() throws Exception {
    assertUserError("streamlab: --store=bigquery needs --outputTable=PROJECT:DATASET.TABLE", "ingest", "--store=bigquery");
    assertUserError("streamlab: --outputTable must be PROJECT:DATASET.TABLE (e.g. my-project:streamlab.events), got: lab.events",
        "ingest", "--store=bigquery", "--outputTable=lab.events");
    assertUserError("streamlab: --outputTable needs --store=bigquery", "ingest", "--outputTable=p:d.t");
    assertUserError("streamlab: --store=bigquery takes --outputTable, not --db or --jdbcUrl",
        "ingest", "--store=bigquery", "--outputTable=p:d.t", "--db=x.duckdb");
    assertUserError("streamlab: --fakeQuota stands in for BigQuery's quota in front of DuckDB or PostgreSQL; with "
        + "--store=bigquery the real quota applies", "ingest", "--store=bigquery", "--outputTable=p:d.t", "--fakeQuota");
    Path grid = dir.resolve("grid.avsc");
    Files.writeString(grid, "{\"type\":\"record\",\"name\":\"Ev\",\"fields\":[{\"name\":\"grid\",\"type\":"
        + "{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":\"long\"}}}]}");
    assertUserError("streamlab: field 'EvRow.grid': array of arrays; BigQuery forbids arrays of arrays (wrap the inner "
        + "array in a record)", "ingest", "--store=bigquery", "--outputTable=p:d.t", "--schema=" + grid);
    assertUserError("streamlab: --store=bigquery: 'streamlab run' verifies every row by reading the table back, which "
        + "it cannot do in BigQuery; ingest into BigQuery with 'streamlab ingest --store=bigquery "
        + "--outputTable=PROJECT:DATASET.TABLE'", "run", "--store=bigquery", "--outputTable=p:d.t",
        "--runDir=" + dir.resolve("never"));
  }

  private static void assertUserError(String expected, String... args) {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    String[] all = args;
    if (args[0].equals("ingest")) {
      all = new String[args.length + 1];
      System.arraycopy(args, 0, all, 0, args.length);
      all[args.length] = "--bootstrapServers=127.0.0.1:1"; // never contacted: the mistake stops it first
    }
    assertEquals(2, cl.execute(all), err.toString());
    assertEquals(expected, err.toString().trim());
  }
}
