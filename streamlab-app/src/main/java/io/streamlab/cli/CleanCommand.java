package io.streamlab.cli;

import io.streamlab.bench.Leftovers;
import io.streamlab.store.StoreSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "clean", mixinStandardHelpOptions = true,
    description = {"List, then (with --yes) remove, what runs left behind: run directories under --runsDir, "
        + "run tables (sl_run_<run id>_events and their _failed) and cluster-run schemas (sl_run_<run id>) in the "
        + "stores named with --db / --jdbcUrl, run and load-test topics (events-<run id>, loadtest-<time>) in the "
        + "Kafka cluster named with --bootstrapServers. Only names streamlab gave are matched: a table you named "
        + "with --table is never listed. Without --yes nothing is removed (a dry run)."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:listed (dry run), or every item removed", "2:a store or broker could not be read, or an item "
        + "could not be removed (the message says which)"})
final class CleanCommand implements Callable<Integer> {
  @Option(names = "--runsDir", defaultValue = "runs",
      description = "Where run directories are (run, loadtest, sinkbench). Default: ${DEFAULT-VALUE}.")
  Path runsDir;

  @Option(names = "--db", paramLabel = "FILE", description = "A DuckDB file runs wrote into with --db (repeatable).")
  List<Path> duckdbFiles = new ArrayList<>();

  @Option(names = "--jdbcUrl", description = "A PostgreSQL database runs wrote into: run tables in the URL's current "
      + "schema and every cluster-run schema. Without password (--passwordFile, STREAMLAB_PG_PASSWORD or PGPASSWORD).")
  String jdbcUrl;

  @Option(names = "--passwordFile", paramLabel = "FILE", description = "PostgreSQL: file holding the password.")
  Path passwordFile;

  @Option(names = "--bootstrapServers", description = "A Kafka cluster runs used with --bootstrapServers: its run "
      + "and load-test topics. (An embedded broker's topics live in the run directory.)")
  String bootstrapServers;

  @Option(names = "--yes", description = "Remove what is listed. Default: list only (dry run).")
  boolean yes;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    List<Leftovers.Item> items = new ArrayList<>(Leftovers.runDirectories(runsDir));
    for (Path db : duckdbFiles) items.addAll(Leftovers.inStore(StoreSpec.duckdb(db)));
    if (jdbcUrl != null) items.addAll(Leftovers.inStore(StoreSpec.postgres(jdbcUrl, passwordFile)));
    if (bootstrapServers != null) items.addAll(Leftovers.topics(bootstrapServers));
    out.printf("[streamlab] clean: %d left behind by runs%s%n", items.size(), items.isEmpty() ? "" : ":");
    for (Leftovers.Item i : items) out.println("  " + i);
    if (items.isEmpty()) return 0;
    if (!yes) {
      out.println("[streamlab] dry run: nothing removed; add --yes to remove the above");
      return 0;
    }
    int failed = 0;
    for (Leftovers.Item i : items) {
      try {
        i.remove();
        out.println("  removed " + i);
      } catch (Exception e) {
        failed++;
        System.err.println("streamlab: cannot remove " + i + ": " + e.getMessage());
      }
    }
    out.printf("[streamlab] clean: %d removed, %d failed%n", items.size() - failed, failed);
    return failed == 0 ? 0 : 2;
  }
}
