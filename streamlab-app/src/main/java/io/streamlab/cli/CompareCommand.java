package io.streamlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.report.Compare;
import io.streamlab.report.ResultsJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
    description = {"Show several runs side by side: a table on the console and an HTML page with charts "
        + "(MB/s per core against the study's 6.4, events/s, p99 against 300 ms), read from each run "
        + "directory's results.json."})
final class CompareCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", arity = "1..*", description = "Run directories (each with a results.json).")
  List<Path> dirs;

  @Option(names = "--out", defaultValue = "compare.html", description = "The HTML page to write. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<JsonNode> runs = new ArrayList<>();
    for (Path d : dirs) runs.add(ResultsJson.read(d));
    System.out.print(Compare.table(runs));
    System.out.println("[streamlab] comparison: " + Compare.writeHtml(runs, out).toAbsolutePath());
    return 0;
  }
}
