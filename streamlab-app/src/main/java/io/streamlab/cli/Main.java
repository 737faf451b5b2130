package io.streamlab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "streamlab", mixinStandardHelpOptions = true, version = "streamlab 0.1.0",
    description = {"Get a high-volume event stream into a warehouse table fast, without losing or "
        + "duplicating a row, and prove it. Runs on a laptop with embedded Kafka, Flink and DuckDB."},
    subcommands = {RunCommand.class, StudyCommand.class, ScenariosCommand.class, CompareCommand.class,
        GenerateCommand.class, IngestCommand.class, LoadtestCommand.class, SinkbenchCommand.class,
        ClusterCommand.class, CleanCommand.class})
public final class Main {
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with streamlab's error handling: user errors as one clear line, exit 2. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    cl.getSubcommands().get("run").getCommandSpec().usageMessage()
        .exitCodeListHeading("Exit codes (with several scenarios: the highest of their codes):%n")
        .exitCodeList(io.streamlab.bench.Verdict.exitCodeList());
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
        cmd.getErr().println("streamlab: " + e.getMessage());
      } else {
        e.printStackTrace(cmd.getErr());
      }
      return 2;
    });
    return cl;
  }
}
