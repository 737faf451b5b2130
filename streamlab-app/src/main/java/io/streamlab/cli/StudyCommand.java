package io.streamlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.cloud.gcp.GcpPlan;
import io.streamlab.report.ResultsJson;
import io.streamlab.report.StudyReport;
import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import io.streamlab.study.StudyJson;
import io.streamlab.study.StudyRow;
import io.streamlab.study.StudyShape;
import io.streamlab.study.StudyTable;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

@Command(name = "study", mixinStandardHelpOptions = true,
    description = {"The study in one command: run the study's seven scenarios (1-default ... "
        + "7-at-least-once-avro), each a max-rate search then a steady window at one common rate, and print one "
        + "table in the study's terms beside the study's figures: highest sustained events/s, CPU-seconds per "
        + "million events and the cores 1 M events/s would need, MB/s per core, p50/p99, bytes shuffled per byte "
        + "read, per-stage wall time and element size after conversion, rows lost and duplicated; then whether "
        + "the lab reproduces the study's shape (yes / no / n/a per finding). A figure the runs do not record is "
        + "printed n/a.",
        "Writes under --out: one directory per run (results.json, report.html, ...), study.json, study.html "
            + "(the table and charts), study.txt (the console table).",
        "Any other flag of 'streamlab run' (e.g. --parallelism=2) is passed to every run, after the scenario's "
            + "settings; the study's window flags win.",
        "Exit code: 0 ok, 1 rows lost in a run, 2 a run failed. The shape verdicts do not change it."})
final class StudyCommand implements Callable<Integer> {
  /** The windows of --quick: short enough for CI, long enough for every figure to be measured. */
  static final Duration QUICK_WARMUP = Duration.ofSeconds(3), QUICK_DURATION = Duration.ofSeconds(8),
      QUICK_STEP = Duration.ofSeconds(4);
  static final int QUICK_STEPS = 2;

  @Option(names = "--scenarios", split = ",", paramLabel = "NAME",
      description = "The scenarios to run, comma-separated names or files. Default: the study's seven (1-... to 7-...).")
  List<String> scenarios;

  @Option(names = "--quick",
      description = "Short windows (warm-up 3s, steady 8s, search 2 steps of 4s) for CI and a first look; "
          + "the figures are then rough. Flags given explicitly win. Default: off.")
  boolean quick;

  @Option(names = "--duration", converter = DurationConverter.class,
      description = "The steady window of each scenario. Default: 30s (--quick: 8s).")
  Duration duration;

  @Option(names = "--warmup", converter = DurationConverter.class,
      description = "Burn-in before each run's measurement (ingested and verified, not measured). "
          + "Default: 10s (--quick: 3s).")
  Duration warmup;

  @Option(names = "--stepDuration", converter = DurationConverter.class,
      description = "How long each rate of the max-rate search is held. Default: 15s (--quick: 4s).")
  Duration stepDuration;

  @Option(names = "--searchSteps",
      description = "Most rates the max-rate search tries (from the scenario's --ratePerSec, x1.5 while sustained, "
          + "then bisection; a failing first rate is tried once more). Default: 6 (--quick: 2).")
  Integer searchSteps;

  @Option(names = "--maxP99", defaultValue = "5s", converter = DurationConverter.class,
      description = "A search step whose p99 exceeds this plus the scenario's triggeringFrequencySec (STORAGE_WRITE_API "
          + "delays rows by up to its trigger by design) is not sustained. Default: ${DEFAULT-VALUE}.")
  Duration maxP99;

  @Option(names = "--search", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Run the max-rate search of each scenario (--no-search: steady windows only, highest sustained "
          + "n/a). Default: on.")
  boolean search;

  @Option(names = "--rate", defaultValue = "0",
      description = "The common rate of the steady windows, events/s. 0 = the lowest highest-sustained rate of the "
          + "searches (every run can keep up with it, so CPU and latency compare like for like); without a search, "
          + "each scenario's own --ratePerSec. Default: ${DEFAULT-VALUE}.")
  double rate;

  @Option(names = "--out", description = "Directory for the study's files. Default: runs/study-<time>.")
  Path out;

  @Unmatched List<String> runFlags = new ArrayList<>();

  @CommandLine.Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintStream console = System.out;
    for (String f : runFlags) {
      if (!f.startsWith("--")) throw new IllegalArgumentException("unexpected argument '" + f + "': scenarios go in "
          + "--scenarios=A,B; other arguments must be flags of 'streamlab run' in --name=value form");
    }
    List<Scenario> chosen = chosenScenarios();
    for (Scenario s : chosen) parse(s, List.of()); // a bad key or flag now, not after an hour of runs
    Duration warm = pick(warmup, QUICK_WARMUP, Duration.ofSeconds(10));
    Duration window = pick(duration, QUICK_DURATION, Duration.ofSeconds(30));
    Duration step = pick(stepDuration, QUICK_STEP, Duration.ofSeconds(15));
    int steps = searchSteps != null ? searchSteps : quick ? QUICK_STEPS : 6;
    if (steps < 1) throw new IllegalArgumentException("--searchSteps must be >= 1: " + steps);
    if (rate < 0) throw new IllegalArgumentException("--rate must be >= 0: " + rate);
    if (parse(chosen.get(0), List.of()).cloud.enabled()) approveCloudRuns(chosen, warm, window, step, steps, console);
    Path dir = Files.createDirectories((out != null ? out
        : Path.of("runs", "study-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
        .toAbsolutePath());
    Map<String, JsonNode> searches = new LinkedHashMap<>();
    int exit = search ? searchAll(chosen, warm, step, steps, dir, searches, console) : 0;
    double common = commonRate(searches, console);
    Map<String, JsonNode> steadies = new LinkedHashMap<>();
    List<StudyRow> rows = new ArrayList<>();
    exit = Math.max(exit, steadyAll(chosen, warm, window, common, dir, searches, steadies, rows, console));

    List<StudyShape.Verdict> verdicts = StudyShape.judge(rows);
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("scenarios", chosen.stream().map(Scenario::name).toList());
    settings.put("quick", quick);
    settings.put("warmup", warm.toString());
    settings.put("steadyWindow", window.toString());
    settings.put("search", search);
    if (search) {
      settings.put("searchStep", step.toString());
      settings.put("searchSteps", steps);
      settings.put("searchMaxP99", maxP99 + " + the scenario's trigger");
    }
    settings.put("commonRatePerSec", common > 0 ? common : "each scenario's own");
    settings.put("runFlags", runFlags);
    JsonNode study = StudyJson.tree(settings, rows, verdicts);
    StudyJson.write(study, dir);
    Path html = StudyReport.write(study, searches, steadies, dir);
    String table = StudyTable.render(rows, verdicts);
    Files.writeString(dir.resolve("study.txt"), table);
    console.println();
    console.println("==== streamlab study ====");
    console.print(table);
    console.println("[streamlab] study: " + dir.resolve("study.json") + ", " + html);
    return exit;
  }

  /** Each scenario's max-rate search, into {@code searches}; returns the worst exit code. */
  private int searchAll(List<Scenario> chosen, Duration warm, Duration step, int steps, Path dir,
      Map<String, JsonNode> searches, PrintStream console) throws Exception {
    int exit = 0;
    for (Scenario s : chosen) {
      List<String> flags = searchFlags(warm, step, steps);
      Duration bound = maxP99.plusMillis(Math.round(1000 * triggerSeconds(parse(s, flags))));
      flags.add("--maxP99=" + bound.toMillis() + "ms");
      console.println("[streamlab] study: " + s.name() + ": max-rate search (p99 bound " + bound.toMillis() + " ms)");
      Path runDir = dir.resolve(s.name()).resolve("search");
      exit = Math.max(exit, parse(s, flags).runOne(s.name() + " (search)", s.description(), runDir, console).exitCode());
      searches.put(s.name(), ResultsJson.read(runDir));
    }
    return exit;
  }

  /** Each scenario's steady window at {@code common} events/s (0: its own rate), into {@code steadies} and {@code rows}. */
  private int steadyAll(List<Scenario> chosen, Duration warm, Duration window, double common, Path dir,
      Map<String, JsonNode> searches, Map<String, JsonNode> steadies, List<StudyRow> rows, PrintStream console)
      throws Exception {
    int exit = 0;
    for (Scenario s : chosen) {
      List<String> flags = steadyFlags(warm, window);
      if (common > 0) flags.add("--ratePerSec=" + common);
      RunCommand run = parse(s, flags);
      double steadyRate = ((Number) run.spec.findOption("--ratePerSec").getValue()).doubleValue();
      console.printf("[streamlab] study: %s: steady window at %,.0f events/s%n", s.name(), steadyRate);
      Path runDir = dir.resolve(s.name()).resolve("steady");
      exit = Math.max(exit, run.runOne(s.name(), s.description(), runDir, console).exitCode());
      JsonNode steady = ResultsJson.read(runDir);
      steadies.put(s.name(), steady);
      rows.add(StudyRow.of(s.name(), searches.get(s.name()), steady, steadyRate));
    }
    return exit;
  }

  private static List<String> searchFlags(Duration warm, Duration step, int steps) {
    return new ArrayList<>(List.of("--mode=max", "--warmup=" + warm.toMillis() + "ms",
        "--stepDuration=" + step.toMillis() + "ms", "--maxSteps=" + steps));
  }

  private static List<String> steadyFlags(Duration warm, Duration window) {
    return new ArrayList<>(List.of("--mode=steady", "--warmup=" + warm.toMillis() + "ms",
        "--duration=" + window.toMillis() + "ms"));
  }

  /**
   * --cloud=gcp: the whole study's worker-hours printed before the first run (each run prints its
   * own resources as it starts); refused without --yes, before anything is created.
   */
  private void approveCloudRuns(List<Scenario> chosen, Duration warm, Duration window, Duration step, int steps,
      PrintStream console) {
    double hours = 0;
    int runs = 0;
    GcpPlan first = null;
    for (Scenario s : chosen) {
      if (search) {
        hours += parse(s, searchFlags(warm, step, steps)).cloudPlan("study").workerHours();
        runs++;
      }
      GcpPlan steady = parse(s, steadyFlags(warm, window)).cloudPlan("study");
      if (first == null) first = steady;
      hours += steady.workerHours();
      runs++;
    }
    console.printf(java.util.Locale.ROOT, "[streamlab] study --cloud=gcp: %d runs one after another, each with its own Pub/Sub "
        + "topic and subscription, BigQuery dataset and Dataflow job (at most %d x %s) in project %s, region %s, "
        + "each removed after its run unless --keep; estimate: at most %.2f worker-hours in all%n", runs,
        first.workers(), first.workerMachineType(), first.project(), first.region(), hours);
    if (!parse(chosen.get(0), List.of()).cloud.yes) {
      throw new IllegalArgumentException("--cloud=gcp runs the study on Dataflow, which Google bills: add --yes to go "
          + "ahead (nothing was created)");
    }
  }

  /** The scenarios asked for, or the study's seven. */
  private List<Scenario> chosenScenarios() {
    if (scenarios != null && !scenarios.isEmpty()) return scenarios.stream().map(ScenarioCatalog::resolve).toList();
    List<Scenario> seven = ScenarioCatalog.builtIn().stream().filter(s -> s.name().matches("[1-7]-.*")).toList();
    if (seven.isEmpty()) throw new IllegalStateException("the study's scenarios (1-... to 7-...) are not built in");
    return seven;
  }

  /**
   * The steady windows' rate: --rate, else the lowest rate a search sustained (rounded down to
   * 100 events/s), else 0 (each scenario's own).
   */
  private double commonRate(Map<String, JsonNode> searches, PrintStream console) {
    if (rate > 0) return rate;
    String lowest = null;
    double min = Double.POSITIVE_INFINITY;
    for (Map.Entry<String, JsonNode> e : searches.entrySet()) {
      double sustained = e.getValue().path("ingestion").path("maxSustainedEventsPerSec").asDouble(0);
      if (sustained > 0 && sustained < min) {
        min = sustained;
        lowest = e.getKey();
      }
      if (sustained == 0) console.println("[streamlab] study: " + e.getKey() + ": its search sustained no rate tried");
    }
    if (lowest == null) {
      if (!searches.isEmpty()) console.println("[streamlab] study: no search sustained a rate; each steady window "
          + "runs at its scenario's own --ratePerSec");
      return 0;
    }
    double common = Math.max(100, Math.floor(min / 100) * 100);
    console.printf("[streamlab] study: steady windows at %,.0f events/s, the lowest highest-sustained rate (%s)%n",
        common, lowest);
    return common;
  }

  /** A run of a scenario: its settings, then the flags passed through, then the study's own flags. */
  private RunCommand parse(Scenario s, List<String> studyFlags) {
    CommandLine cl = new CommandLine(new RunCommand()).setCaseInsensitiveEnumValuesAllowed(true)
        .setOverwrittenOptionsAllowed(true);
    List<String> args = new ArrayList<>(ScenarioArgs.of(s, cl.getCommandSpec()));
    args.addAll(runFlags);
    args.addAll(studyFlags);
    try {
      cl.parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException("scenario " + s.name() + ": " + e.getMessage() + " (flags that are not "
          + "'streamlab study --help' flags go to every 'streamlab run')");
    }
    return cl.getCommand();
  }

  /** The run's STORAGE_WRITE_API trigger in seconds (0 for the other write methods). */
  private static double triggerSeconds(RunCommand run) {
    Object method = run.spec.findOption("--writeMethod").getValue();
    if (method == null || !method.toString().equals("STORAGE_WRITE_API")) return 0;
    Object trigger = run.spec.findOption("--triggeringFrequencySec").getValue();
    return trigger instanceof Number n ? n.doubleValue() : 0;
  }

  private Duration pick(Duration explicit, Duration quickValue, Duration normal) {
    return explicit != null ? explicit : quick ? quickValue : normal;
  }
}
