package io.streamlab.cli;

import io.streamlab.bench.SinkBench;
import io.streamlab.bench.SinkBenchResult;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.WriterPool;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.throttle.Tuning;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "sinkbench", mixinStandardHelpOptions = true, modelTransformer = SinkbenchCommand.Flags.class,
    description = {"Table writers under quota pressure: the same generated load (--ratePerSec for --duration) is "
        + "written by each throttling strategy on each writer pool in turn, through the pipeline's write stage on a "
        + "real Beam runner, into a fresh DuckDB file behind a fake warehouse quota (rows/s and bytes/s per table, "
        + "rows and bytes per request, concurrent requests: rateLimitExceeded / quotaExceeded, plus seeded "
        + "transient backendErrors). Failed bundles are retried by the runner (Flink: restart from the last "
        + "checkpoint). Prints writer wall time, rows and bytes written, errors by reason, retries, failed "
        + "appends, rows lost and duplicated per strategy; saves sinkbench.json and sinkbench.csv.",
        "Exit code: 0 no strategy lost a row, 1 some did."})
final class SinkbenchCommand implements Callable<Integer> {
  @Option(names = "--duration", defaultValue = "10s", converter = DurationConverter.class,
      description = "How long the load is offered (rows = rate x duration). Default: ${DEFAULT-VALUE}.")
  Duration duration;

  @Option(names = "--ratePerSec", defaultValue = "2000",
      description = "Rows per second offered, above the quota so it bites. Default: ${DEFAULT-VALUE}.")
  long ratePerSec;

  @Option(names = "--writeMethods", defaultValue = "STORAGE_API_AT_LEAST_ONCE,STREAMING_INSERTS", split = ",",
      description = "Write paths the load goes through: STORAGE_API_AT_LEAST_ONCE (Avro records appended in the "
          + "reading stage), STREAMING_INSERTS (JSON rows reshuffled onto keys, small insert requests), "
          + "STORAGE_WRITE_API. Default: ${DEFAULT-VALUE}.")
  List<WriteMethod> writeMethods;

  @Option(names = "--strategies", defaultValue = "none,adaptive,shared-backoff,retry-any", split = ",",
      description = "Strategies to run: none, adaptive, shared-backoff, retry-any. Default: ${DEFAULT-VALUE}.")
  List<String> strategies;

  @Option(names = "--pools", defaultValue = "unbounded,4", split = ",",
      description = "Writer pools to run each strategy on: unbounded, single or a thread count. Default: ${DEFAULT-VALUE}.")
  List<String> pools;

  @Option(names = "--table", defaultValue = "events", description = "Table name. Default: ${DEFAULT-VALUE}.")
  String table;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of the generated rows. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--runDir", description = "Directory for the tables and results. Default: runs/sinkbench-<time>.")
  Path runDir;

  @Option(names = "--checkpointingInterval", defaultValue = "1s", converter = DurationConverter.class,
      description = "Flink checkpoint interval: a failed bundle is retried from the last checkpoint. Default: ${DEFAULT-VALUE}.")
  Duration checkpointingInterval;

  @Option(names = "--restarts", defaultValue = "200",
      description = "Failed bundles the runner retries (Flink restarts) before giving the strategy up. Default: ${DEFAULT-VALUE}.")
  int restarts;

  @Option(names = "--restartDelay", defaultValue = "500ms", converter = DurationConverter.class,
      description = "Wait before the runner retries. Default: ${DEFAULT-VALUE}.")
  Duration restartDelay;

  @Option(names = "--variantTimeout", defaultValue = "3m", converter = DurationConverter.class,
      description = "Stop a strategy whose table is not complete after this long (its missing rows count as lost). "
          + "Default: ${DEFAULT-VALUE}.")
  Duration variantTimeout;

  @Option(names = "--stallTimeout", defaultValue = "30s", converter = DurationConverter.class,
      description = "A variant whose table gains no row for this long is stopped and reported (completion "
          + "follows what is written; --variantTimeout is the overall bound). Default: ${DEFAULT-VALUE}.")
  Duration stallTimeout;

  @Mixin RunnerFlags runner;
  @Spec CommandSpec spec;

  /** The throttling strategies' knobs and the fake quota's limits, as ingest and run have them. */
  public static final class Flags extends BeamFlags.Transformer {
    public Flags() {
      super(List.of(SchemaOptions.class, TuningOptions.class, QuotaOptions.class, RunnerOptions.class), BeamFlags.RUNNER);
    }
  }

  @Override
  public Integer call() throws Exception {
    if (ratePerSec <= 0) throw new IllegalArgumentException("--ratePerSec must be > 0: " + ratePerSec);
    runner.validate();
    Preflight.positive("--duration", duration);
    Preflight.positive("--variantTimeout", variantTimeout);
    Preflight.positive("--stallTimeout", stallTimeout);
    long rows = Math.max(1, ratePerSec * duration.toMillis() / 1000);
    Tuning tuning = TuningOptions.toTuning(BeamFlags.options(spec, TuningOptions.class));
    QuotaLimits quota = QuotaOptions.toLimits(BeamFlags.options(spec, QuotaOptions.class));
    List<SinkBench.Variant> variants = new ArrayList<>();
    for (WriteMethod m : writeMethods) {
      for (String s : strategies) {
        for (String p : pools) variants.add(new SinkBench.Variant(m, Strategy.parse(s), WriterPool.parse(p)));
      }
    }
    Path dir = (runDir != null ? runDir
        : Path.of("runs", "sinkbench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
        .toAbsolutePath();
    // Bundle retries need checkpoints and a restart strategy; the user's --beamArg come last and win.
    RunnerChoice choice = runner.choice(List.of("--checkpointingInterval=" + checkpointingInterval.toMillis(),
        "--numberOfExecutionRetries=" + restarts, "--executionRetryDelay=" + restartDelay.toMillis()));

    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("rows", rows);
    setup.put("ratePerSec", ratePerSec);
    setup.put("quota", quota);
    setup.put("tuning", tuning);
    setup.put("runner", choice);
    setup.put("appendBatchSize", runner.appendBatchSize());
    setup.put("machineCores", Runtime.getRuntime().availableProcessors());
    setup.put("loadAverageAtStart", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.println("[sinkbench] " + dir + ": " + setup);

    List<SinkBenchResult> results = new SinkBench(new SinkBench.Config(dir, SchemaOptions.load(BeamFlags.options(spec, SchemaOptions.class)), rows, ratePerSec, seed,
        variants, tuning, quota, choice, runner.appendBatchSize(), table, variantTimeout, stallTimeout), System.out).execute();
    setup.put("loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    SinkBenchResult.print(results, System.out);
    SinkBenchResult.save(results, setup, dir);
    System.out.println("[sinkbench] load average " + setup.get("loadAverageAtStart") + " -> "
        + setup.get("loadAverageAtEnd") + "; results in " + dir.resolve("sinkbench.json") + " and sinkbench.csv");
    return results.stream().anyMatch(r -> r.lost() > 0) ? 1 : 0;
  }
}
