package io.streamlab.cli;

import io.streamlab.pipeline.FlinkConf;
import io.streamlab.pipeline.RunnerChoice;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which Beam runner executes ingestion, and how it batches. Shared by ingest and run. */
final class RunnerOptions {
  @Option(names = "--runner", defaultValue = "FlinkRunner",
      description = "Beam runner: FlinkRunner (default; embedded MiniCluster unless --flinkMaster "
          + "names a cluster) or DirectRunner (small tests only: ~5 k events/s).")
  String runner;

  @Option(names = "--flinkMaster", defaultValue = "[local]",
      description = "Flink JobManager host:port, or [local] for an embedded MiniCluster. Default: ${DEFAULT-VALUE}.")
  String flinkMaster;

  @Option(names = "--parallelism", defaultValue = "0",
      description = "Pipeline parallelism; 0 = one per core of this machine. Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @Option(names = "--maxBundleSize", defaultValue = "50000",
      description = "Flink: most elements in one bundle (a bundle ends with an append). Default: ${DEFAULT-VALUE}.")
  int maxBundleSize;

  // 100 ms: a row waits for its bundle to end before it is appended, so this is a floor under
  // latency (default run, loaded machine: p99 2.5 s at 1,000 ms, 0.64 s at 100 ms). A drain or a
  // high rate still fills bundles up to --maxBundleSize; raise it for throughput-only runs.
  @Option(names = "--maxBundleTimeMills", defaultValue = "100",
      description = "Flink: longest a bundle stays open, ms; a bundle ends with an append, so this bounds latency from below. Longer bundles mean bigger appends (DuckDB: ~60 MB/s per core in 1,000-row appends, ~130 in 20,000-row ones) at the cost of latency. Default: ${DEFAULT-VALUE}.")
  long maxBundleTimeMills;

  @Option(names = "--appendBatchSize", defaultValue = "50000",
      description = "Most rows in one table append. Default: ${DEFAULT-VALUE}.")
  int appendBatchSize;

  @Option(names = "--beamArg", paramLabel = "--NAME=VALUE",
      description = "Any further Beam pipeline option, passed as is (repeatable), e.g. --beamArg=--checkpointingInterval=10000.")
  List<String> beamArgs = new ArrayList<>();

  @Option(names = "--bindAddress", defaultValue = FlinkConf.LOOPBACK,
      description = "Address the embedded Flink's REST API, BLOB server and RPC listen on. Anything but loopback "
          + "lets other hosts read the JVM options and cancel the job (Flink's REST API has no authentication). "
          + "Default: ${DEFAULT-VALUE}.")
  String bindAddress;

  /** True when the pipeline is submitted to a Flink cluster rather than run in this JVM. */
  boolean onFlinkCluster() {
    return runner.startsWith("Flink") && !flinkMaster.equals("[local]") && !flinkMaster.equals("[auto]");
  }

  /** Refuses nonsense values (exit 2) before anything starts. */
  void validate() {
    Preflight.atLeast(java.util.Map.of("--parallelism", parallelism), 0); // 0 = one per core
    Preflight.atLeast(java.util.Map.of("--maxBundleSize", maxBundleSize, "--maxBundleTimeMills", maxBundleTimeMills,
        "--appendBatchSize", appendBatchSize), 1);
  }

  RunnerChoice toChoice() {
    int p = parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
    return new RunnerChoice(runner, flinkMaster, p, maxBundleSize, maxBundleTimeMills, beamArgs, bindAddress);
  }

  List<String> asArgs() {
    List<String> a = new ArrayList<>(List.of("--runner=" + runner, "--flinkMaster=" + flinkMaster,
        "--parallelism=" + parallelism, "--maxBundleSize=" + maxBundleSize,
        "--maxBundleTimeMills=" + maxBundleTimeMills, "--appendBatchSize=" + appendBatchSize, "--bindAddress=" + bindAddress));
    for (String b : beamArgs) a.add("--beamArg=" + b);
    return a;
  }
}
