package io.streamlab.loadtest;

import io.streamlab.report.ReportFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole {@code streamlab loadtest}: the points of a sweep, or a max-rate search, one after
 * another against one driver, then {@code loadtest.csv}, {@code loadtest.json} and
 * {@code loadtest.html} in the output directory.
 */
public final class Loadtest {
  private final BrokerDriver driver;
  private final PrintStream console;

  public Loadtest(BrokerDriver driver, PrintStream console) {
    this.driver = driver;
    this.console = console;
  }

  /** Runs every point of {@code sweep} (one point for NONE). */
  public LoadtestReport sweep(LoadtestSettings base, Sweep sweep, int maxCores) throws Exception {
    List<PointResult> results = new ArrayList<>();
    for (Sweep.Point p : sweep.points(base, maxCores)) results.add(point(p.label(), p.settings()));
    return new LoadtestReport(sweep.cliName(), results, null, machine());
  }

  /** Searches the highest sustained publish rate, starting at the base settings' rate. */
  public LoadtestReport maxRate(LoadtestSettings base, int bisections, int maxTrials) throws Exception {
    MaxRateSearch search = new MaxRateSearch(base.ratePerSec(), bisections, maxTrials);
    MaxRateSearch.Outcome outcome = search.search((rate, n) -> point(String.format("rate=%.0f", rate),
        base.withRate(rate).withTopic(base.topic() + "-rate" + n, base.subscription() + "-rate" + n)));
    console.printf("max-rate search: highest sustained rate %,.0f msg/s (%d trials)%n", outcome.highestSustained(),
        outcome.steps().size());
    List<PointResult> results = outcome.steps().stream().map(MaxRateSearch.Step::result).toList();
    return new LoadtestReport("max-rate", results, outcome, machine());
  }

  private PointResult point(String label, LoadtestSettings settings) throws Exception {
    console.printf("=== %s: %s, %s, %d publishing threads, rate %s ===%n", label, driver.name(), settings.messageSizes(),
        settings.publishingThreads(), settings.ratePerSec() == 0 ? "unlimited" : String.format("%,.0f/s", settings.ratePerSec()));
    PointResult r = new LoadtestRun(driver, settings, label, console).run();
    console.print(r.summary());
    return r;
  }

  /** Writes loadtest.csv, loadtest.json and loadtest.html into {@code dir}. */
  public static void write(LoadtestReport report, Path dir) throws IOException {
    Files.createDirectories(dir);
    CsvReport.write(dir.resolve("loadtest.csv"), report.points());
    ReportFiles.writeJson(dir.resolve("loadtest.json"), report);
    HtmlReport.write(dir.resolve("loadtest.html"), report);
  }

  /** Cores and load average: the machine may be shared, so figures come with its load. */
  static String machine() {
    String load = "";
    try {
      load = ", load average " + Files.readString(Path.of("/proc/loadavg")).trim().replaceAll("^(\\S+ \\S+ \\S+).*", "$1");
    } catch (IOException | RuntimeException notLinux) {
      // no load figure off Linux
    }
    return Runtime.getRuntime().availableProcessors() + " cores" + load;
  }
}
