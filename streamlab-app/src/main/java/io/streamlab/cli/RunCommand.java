package io.streamlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.bench.Ingestion;
import io.streamlab.bench.LabRun;
import io.streamlab.bench.RunArtifacts;
import io.streamlab.bench.RunInfo;
import io.streamlab.bench.RunMode;
import io.streamlab.bench.Chaos;
import io.streamlab.cloud.gcp.DataflowIngestion;
import io.streamlab.cloud.gcp.GcpPlan;
import io.streamlab.cloud.gcp.GcpResources;
import io.streamlab.cloud.gcp.GcpServices;
import io.streamlab.cloud.gcp.PubsubTransport;
import io.streamlab.cluster.LocalPostgres;
import io.streamlab.store.StoreSpec;
import io.streamlab.bench.RunResult;
import io.streamlab.generator.EventGenerator;
import io.streamlab.report.Compare;
import io.streamlab.report.HtmlReport;
import io.streamlab.report.ResultsJson;
import io.streamlab.report.SeriesCsv;
import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true, modelTransformer = BeamFlags.Ingestion.class,
    description = {"The whole lab end to end: start an embedded Kafka broker (unless --bootstrapServers), "
        + "start ingestion as its own process, warm up, then measure (--mode: steady generation at "
        + "--ratePerSec for --duration, the drain of a preloaded backlog, or a search for the highest "
        + "sustainable rate), verify the table (lost / duplicated) and print a summary (events/s, MB/s, "
        + "MB/s per ingestion core, per-stage figures, latency percentiles). Everything goes under a fresh "
        + "run directory: results.json, timeseries.csv, report.html, summary.txt, the table, the logs.",
        "With SCENARIO names (see 'streamlab scenarios') or scenario files, runs each in a row with its "
        + "flags; flags given here win over the scenario's. Several runs end with a comparison table.",
        "The verdict judges the table against the write method's promise: exactly-once (STORAGE_WRITE_API) "
        + "fails on any loss or duplicate, at-least-once fails on loss and shows its duplicates; dead letters "
        + "are shown apart. Exit codes below."})
final class RunCommand implements Callable<Integer> {
  @Parameters(paramLabel = "SCENARIO", arity = "0..*",
      description = "Built-in scenario names or scenario files to run in a row (none: one run with the flags).")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--mode", defaultValue = "STEADY",
      description = "steady: generate at --ratePerSec for --duration; drain: preload --preload events, then time "
          + "ingestion alone; max: search the highest rate at which backlog and p99 stay bounded. "
          + "Default: ${DEFAULT-VALUE}.")
  RunMode mode;

  @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
      description = "steady: how long to generate in the measurement window; max with --holdAtShare: the hold's "
          + "window. Default: ${DEFAULT-VALUE}.")
  Duration duration;

  @Option(names = "--warmup", defaultValue = "10s", converter = DurationConverter.class,
      description = "Burn-in before the measurement window (steady, max): generated at --ratePerSec, ingested "
          + "and verified, but not measured (JVM and Flink warm-up). steady: it goes on until the pipeline has caught "
          + "up (at most this or 15 s longer) and runs straight into the window, or is drained first if it never "
          + "caught up (see --warmupDrain); max: it is drained before the first step, and with --holdAtShare the hold at "
          + "its rate warms up as a steady run does. 0 = none. Default: ${DEFAULT-VALUE}.")
  Duration warmup;

  @Option(names = "--warmupDrain", defaultValue = "false", fallbackValue = "true", arity = "0..1",
      description = "steady: drain the warm-up before the window, so that the window starts from an idle pipeline "
          + "and its latency includes the catching up after a pause (without it the window's generator takes "
          + "over from the warm-up's with no gap: the steady state). Default: ${DEFAULT-VALUE}.")
  boolean warmupDrain;

  @Option(names = "--preload", defaultValue = "500000",
      description = "drain: events in the measured backlog. Default: ${DEFAULT-VALUE}.")
  long preload;

  @Option(names = "--preloadWarmup", defaultValue = "100000",
      description = "drain: events ahead of the backlog, ingested before the window starts. Default: ${DEFAULT-VALUE}.")
  long preloadWarmup;

  @Option(names = "--stepDuration", defaultValue = "15s", converter = DurationConverter.class,
      description = "max: how long each rate of the search is held. Default: ${DEFAULT-VALUE}.")
  Duration stepDuration;

  @Option(names = "--maxP99", defaultValue = "2s", converter = DurationConverter.class,
      description = "max: a rate whose p99 latency exceeds this is not sustained. Default: ${DEFAULT-VALUE}.")
  Duration maxP99;

  @Option(names = "--maxSteps", defaultValue = "8",
      description = "max: most rates tried (starting at --ratePerSec, x1.5 until one fails, then bisection; a failing first "
          + "rate is tried once more, since start-up alone can fail it). Default: ${DEFAULT-VALUE}.")
  int maxSteps;

  @Option(names = "--holdAtShare", defaultValue = "0",
      description = "max: after the search, hold this share of the highest sustained rate (e.g. 0.8) in the same, "
          + "warmed-up pipeline: a warm-up of --warmup at that rate runs into a window of --duration, whose latency, "
          + "rates and CPU are the run's figures (the question 'what p99 at 80 %% of the maximum'). 0 = none: the "
          + "figures are of all the steps. Default: ${DEFAULT-VALUE}.")
  double holdAtShare;

  @Option(names = "--bootstrapServers",
      description = "Use this Kafka cluster instead of starting an embedded broker.")
  String bootstrapServers;

  @Option(names = "--partitions", defaultValue = "4", description = "Partitions of the run's topic. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Option(names = "--table", description = "Table name. Default: a table of the run's own, so runs never see each "
      + "other's rows: 'events' in the run directory's DuckDB file or a cluster run's fresh schema, "
      + "sl_run_<run id>_events in a shared store (--store=postgres, --db). A named table may be shared; an "
      + "exactly-once run (STORAGE_WRITE_API) refuses one that exists without the identity key.")
  String table;

  @Option(names = "--runDir", description = "Directory for this run's files. Default: runs/<time>-<random>[-<scenario>] "
      + "under the current directory; with several scenarios, one subdirectory each.")
  Path runDir;

  @Option(names = "--drainTimeout", defaultValue = "60s", converter = DurationConverter.class,
      description = "Give up draining when no row arrives for this long. Default: ${DEFAULT-VALUE}.")
  Duration drainTimeout;

  @Option(names = "--progressInterval", defaultValue = "5s", converter = DurationConverter.class,
      description = "How often to print a progress line. Default: ${DEFAULT-VALUE}.")
  Duration progressInterval;

  @Mixin GeneratorOptions generator;
  @Mixin RunnerFlags runner;

  @Mixin ClusterOptions cluster;
  @Mixin CloudOptions cloud;

  @Option(names = "--chaos", defaultValue = "none",
      description = "Faults in the measurement window, comma-separated. kill-ingest:N = kill -9 the ingestion process "
          + "N times at random moments (each once it has written rows, or has nothing left to write) and restart it (it resumes from its committed Kafka offsets). With --cluster: "
          + "kill-taskmanager = kill -9 one Flink TaskManager and start it again 3 s later (the job restarts from its "
          + "last checkpoint), kill-broker = the same for one Kafka broker. With --cluster or --store=postgres on "
          + "127.0.0.1:5432: restart-postgres = pg_ctlcluster restart (every connection cut for a second or two; "
          + "affects everything using that server; writers wait and retry). The summary reports lost and "
          + "duplicated rows. Default: ${DEFAULT-VALUE}.")
  String chaos;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    validate();
    PrintStream out = System.out;
    if (scenarios.isEmpty()) return runOne("run", "", runDir, out).exitCode();
    List<String> explicit = explicitFlags(spec.commandLine().getParseResult());
    String batch = runId();
    List<JsonNode> results = new ArrayList<>();
    List<Path> dirs = new ArrayList<>();
    int exit = 0;
    for (String name : scenarios) {
      Scenario scenario = ScenarioCatalog.resolve(name);
      List<String> args = new ArrayList<>(ScenarioArgs.of(scenario, spec));
      args.addAll(explicit); // the command line wins over the scenario
      CommandLine cl = new CommandLine(new RunCommand()).setCaseInsensitiveEnumValuesAllowed(true)
          .setOverwrittenOptionsAllowed(true);
      cl.parseArgs(args.toArray(String[]::new));
      RunCommand one = cl.getCommand();
      one.cloud.services = cloud.services;
      Path dir = (runDir != null ? runDir : Path.of("runs", batch)).resolve(scenario.name());
      out.println("[streamlab] scenario " + scenario.name() + ": " + String.join(" ", args));
      RunResult r = one.runOne(scenario.name(), scenario.description(), dir, out);
      exit = Math.max(exit, r.exitCode());
      dirs.add(dir);
      results.add(ResultsJson.read(dir.toAbsolutePath()));
    }
    if (results.size() > 1) {
      Path compare = dirs.get(0).toAbsolutePath().getParent().resolve("compare.html");
      Compare.writeHtml(results, compare);
      out.println();
      out.print(Compare.table(results));
      out.println("[streamlab] comparison: " + compare);
    }
    return exit;
  }

  /** One run with this command's flags; writes results.json, timeseries.csv, report.html and summary.txt. */
  RunResult runOne(String name, String description, Path dir, PrintStream out) throws Exception {
    StoreOptions store = BeamFlags.options(spec, StoreOptions.class);
    if (cloud.enabled()) return runOnGcp(name, description, dir, out);
    if (!runner.dataflowArgs().isEmpty()) {
      throw new IllegalArgumentException(String.join(" ", runner.dataflowArgs()) + ": Dataflow options need --cloud=gcp");
    }
    if (store.getStore() == StoreOptions.Store.bigquery) {
      throw new IllegalArgumentException("--store=bigquery: 'streamlab run' verifies every row by reading the table "
          + "back, which it cannot do in BigQuery; ingest into BigQuery with 'streamlab ingest --store=bigquery "
          + "--outputTable=PROJECT:DATASET.TABLE'");
    }
    String runId = runId();
    Path d = (dir != null ? dir : Path.of("runs", runId)).toAbsolutePath();
    // The run directory's DuckDB file, or a cluster run's fresh schema, holds this run's rows only.
    boolean storeOfItsOwn = store.getStore() == StoreOptions.Store.duckdb && store.getDb() == null;
    if (table == null) table = storeOfItsOwn ? "events" : RunArtifacts.table(runId);
    if (cluster.enabled()) {
      bootstrapServers = cluster.applyTo(runner, store, bootstrapServers, runId, d).bootstrapServers();
      BeamFlags.setValues(spec, store, StoreOptions.class);
    }
    runner.resolveParallelism(); // after the cluster's: its slots
    runner.resolveKafkaReader();
    EventGenerator.Config gen = generatorConfig("events-" + runId);
    List<String> ingestArgs = checkedIngestArgs(runner.childArgs());
    Chaos chaosPlan = Chaos.parse(chaos);
    if (chaosPlan.needsCluster() && !cluster.enabled()) {
      throw new IllegalArgumentException("--chaos=" + chaos + " injects faults into a cluster: add --cluster");
    }
    if (chaosPlan.restartsPostgres() && !cluster.enabled()
        && (store.getStore() != StoreOptions.Store.postgres || store.getJdbcUrl() == null
            || !LocalPostgres.isLocal(store.getJdbcUrl()))) {
      throw new IllegalArgumentException("--chaos=restart-postgres restarts this machine's PostgreSQL (pg_ctlcluster): "
          + "it needs --store=postgres with --jdbcUrl=jdbc:postgresql://127.0.0.1:5432/DB, or --cluster"
          + (store.getJdbcUrl() == null ? "" : "; --jdbcUrl names another server"));
    }
    if (chaosPlan.ingestKills() > 0 && cluster.enabled()) {
      throw new IllegalArgumentException("--chaos=kill-ingest:N kills the local ingestion process; with --cluster "
          + "the job runs on the TaskManagers: use kill-taskmanager");
    }
    if (cluster.enabled()) chaosPlan = chaosPlan.onCluster(cluster.cluster);
    StoreSpec storeSpec = store.getStore() == StoreOptions.Store.duckdb && store.getDb() == null ? null
        : StoreOptions.toSpec(store, d.resolve("streamlab.duckdb"));
    RunInfo info = new RunInfo(name, description, mode, OffsetDateTime.now().toString(), configuration());
    RunResult result = new LabRun(new LabRun.Config(d, bootstrapServers, partitions, table,
        gen, warmup, ingestArgs, drainTimeout, progressInterval, info, modeSettings(), storeSpec, chaosPlan,
        cluster.enabled() ? Ingestion.onCluster(cluster.cluster) : Ingestion.inChildProcess(), null), out,
        s -> BeamFlags.asArgs(StoreOptions.of(s), StoreOptions.class)).execute();
    return report(result, d, out);
  }

  /** Prints the run's summary and writes results.json, timeseries.csv, report.html and summary.txt. */
  private static RunResult report(RunResult result, Path d, PrintStream out) throws Exception {
    result.print(out);
    JsonNode json = ResultsJson.read(ResultsJson.write(result, d).getParent());
    SeriesCsv.write(json, d);
    Path report = HtmlReport.write(json, d);
    Files.writeString(d.resolve("summary.txt"), result.summaryLine() + System.lineSeparator());
    out.println("[streamlab] report: " + report);
    return result;
  }

  /**
   * {@code --cloud=gcp}: the same run with Pub/Sub in, the ingestion on Dataflow and the table in
   * BigQuery, in resources made for it (printed first, and only with --yes) and removed after it.
   */
  private RunResult runOnGcp(String name, String description, Path dir, PrintStream out) throws Exception {
    if (cluster.enabled() || bootstrapServers != null || table != null || !chaos.equals("none")
        || spec.commandLine().getParseResult().hasMatchedOption("--store")) {
      throw new IllegalArgumentException("--cloud=gcp makes its own topic, table and job: it takes none of --cluster, "
          + "--bootstrapServers, --table, --store, --chaos");
    }
    String runId = runId();
    Path d = (dir != null ? dir : Path.of("runs", runId)).toAbsolutePath();
    GcpPlan plan = cloud.approvedPlan(cloudPlan(runId), out);
    EventGenerator.Config gen = generatorConfig(plan.topic());
    // the runner is Dataflow, named with its options by the plan (DataflowIngestion)
    List<String> ingestArgs = checkedIngestArgs(runner.childArgs().stream().filter(a -> !a.startsWith("--runner=")).toList());
    RunInfo info = new RunInfo(name, description, mode, OffsetDateTime.now().toString(), configuration());
    RunResult result;
    try (GcpServices gcp = cloud.services.open(plan);
        GcpResources made = GcpResources.create(gcp, plan, gen.schema(), cloud.keep, out)) {
      result = new LabRun(new LabRun.Config(d, null, 0, plan.table().table(), gen, warmup, ingestArgs, drainTimeout,
          progressInterval, info, modeSettings(), StoreSpec.bigquery(plan.table().spec()), Chaos.parse("none"),
          DataflowIngestion.launcher(gcp, plan), new PubsubTransport(gcp.pubsub(), plan)), out,
          s -> BeamFlags.asArgs(StoreOptions.of(s), StoreOptions.class)).execute();
    }
    return report(result, d, out);
  }

  /** What --cloud=gcp would create for a run named {@code runId}, and its estimate. */
  GcpPlan cloudPlan(String runId) {
    return CloudOptions.plan(runner, runId, expectedWindow());
  }

  /**
   * How long a run generates and drains at most, for a cloud run's worker-hour estimate: the
   * window and warm-up, the drain allowed after each phase; drain mode assumes >= 1,000 events/s.
   */
  private Duration expectedWindow() {
    return switch (mode) {
      case STEADY -> warmup.plus(duration).plus(drainTimeout.multipliedBy(2));
      case MAX -> warmup.plus(drainTimeout).plus(stepDuration.plus(drainTimeout).multipliedBy(maxSteps))
          .plus(holdAtShare > 0 ? LabRun.warmUpLimit(warmup).plus(duration).plus(drainTimeout) : Duration.ZERO);
      case DRAIN -> Duration.ofSeconds((preload + preloadWarmup) / 1_000).plus(drainTimeout.multipliedBy(2));
    };
  }

  /** The generator of the run's events into {@code topic}. */
  private EventGenerator.Config generatorConfig(String topic) {
    SchemaOptions schema = BeamFlags.options(spec, SchemaOptions.class);
    return new EventGenerator.Config(bootstrapServers, topic, SchemaOptions.load(schema), schema.getTransportFormat(),
        generator.toSettings(), generator.seed, generator.producers, 0, generator.ratePerSec, 0, duration, Map.of());
  }

  /**
   * The ingestion child's flags: {@code runnerArgs} and the ingestion's options, both written from
   * the options. A bad UDF or write setting, or a Beam option Beam does not know (a misspelled
   * --beamArg), is a user error here, not a failed child.
   */
  private List<String> checkedIngestArgs(List<String> runnerArgs) {
    DecodeOptions.toDecoding(BeamFlags.options(spec, DecodeOptions.class)).udf().check();
    WriteOptions write = BeamFlags.options(spec, WriteOptions.class);
    WriteOptions.toSettings(write);
    WriteOptions.checkCommitPerBundle(write, BeamFlags.options(spec, StoreOptions.class).getStore(),
        BeamFlags.options(spec, ThrottleOptions.class).getFakeQuota());
    List<String> ingestion = BeamFlags.ingestionArgs(spec);
    runner.check(ingestion);
    List<String> ingestArgs = new ArrayList<>(runnerArgs);
    ingestArgs.addAll(ingestion);
    return ingestArgs;
  }

  /** The flags 'streamlab run' gives its ingestion child (the source and store besides), for tests. */
  List<String> ingestArgs() {
    return checkedIngestArgs(runner.childArgs());
  }

  private LabRun.ModeSettings modeSettings() {
    return new LabRun.ModeSettings(mode, preload, preloadWarmup, stepDuration, maxP99, maxSteps, warmupDrain, holdAtShare);
  }

  /** Every option of this command with its value (defaults included), for results.json. */
  private Map<String, String> configuration() {
    Map<String, String> m = new LinkedHashMap<>();
    for (OptionSpec o : spec.options()) {
      if (o.usageHelp() || o.versionHelp()) continue;
      Object v = o.getValue();
      if (v != null) m.put(o.longestName().replaceFirst("^-+", ""), String.valueOf(v));
    }
    return m;
  }

  /** The options the user typed, as --name=value, to lay over a scenario's. */
  private static List<String> explicitFlags(ParseResult parsed) {
    List<String> flags = new ArrayList<>();
    for (OptionSpec o : parsed.matchedOptions()) {
      if (o.arity().max() == 0 || o.originalStringValues().isEmpty()) { // a switch, or a value-less --flag
        flags.add(o.longestName());
      } else {
        for (String v : o.originalStringValues()) flags.add(o.longestName() + "=" + v);
      }
    }
    return flags;
  }

  private static String runId() {
    return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
        + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
  }

  /** Nonsense values are refused before anything starts (exit 2). */
  private void validate() {
    runner.validate();
    Preflight.positive("--duration", duration);
    Preflight.notNegative("--warmup", warmup);
    Preflight.positive("--progressInterval", progressInterval);
    Preflight.positive("--drainTimeout", drainTimeout);
    Preflight.positive("--stepDuration", stepDuration);
    Preflight.positive("--maxP99", maxP99);
    LabRun.ModeSettings.requireShare(holdAtShare);
    if (holdAtShare > 0 && mode != RunMode.MAX) throw new IllegalArgumentException("--holdAtShare is for --mode=max");
  }
}
