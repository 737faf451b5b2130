package io.streamlab.cli;

import io.streamlab.bench.Chaos;
import io.streamlab.bench.LabRun;
import io.streamlab.store.StoreSpec;
import io.streamlab.bench.RunResult;
import io.streamlab.generator.EventGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"The whole lab end to end: start an embedded Kafka broker (unless --bootstrapServers), "
        + "start ingestion as its own process, generate events for --duration at --ratePerSec, drain, "
        + "verify the table (lost / duplicated) and print a summary (events/s, MB/s, MB/s per ingestion "
        + "core, latency percentiles). Everything goes under a fresh run directory.",
        "Exit code: 0 ok, 1 rows lost, 2 the run failed."})
final class RunCommand implements Callable<Integer> {
  @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
      description = "How long to generate. Default: ${DEFAULT-VALUE}.")
  Duration duration;

  @Option(names = "--warmup", defaultValue = "10s", converter = DurationConverter.class,
      description = "Burn-in before the measurement window: generated at the same rate, ingested, drained and "
          + "verified, but not measured (JVM and Flink warm-up). 0 = none. Default: ${DEFAULT-VALUE}.")
  Duration warmup;

  @Option(names = "--bootstrapServers",
      description = "Use this Kafka cluster instead of starting an embedded broker.")
  String bootstrapServers;

  @Option(names = "--partitions", defaultValue = "4", description = "Partitions of the run's topic. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Option(names = "--table", defaultValue = "events", description = "Table name. Default: ${DEFAULT-VALUE}.")
  String table;

  @Option(names = "--runDir", description = "Directory for this run's files. Default: runs/<time>-<random> under the current directory.")
  Path runDir;

  @Option(names = "--drainTimeout", defaultValue = "60s", converter = DurationConverter.class,
      description = "Give up draining when no row arrives for this long. Default: ${DEFAULT-VALUE}.")
  Duration drainTimeout;

  @Option(names = "--progressInterval", defaultValue = "5s", converter = DurationConverter.class,
      description = "How often to print a progress line. Default: ${DEFAULT-VALUE}.")
  Duration progressInterval;

  @Mixin SchemaOptions schema;
  @Mixin GeneratorOptions generator;
  @Mixin RunnerOptions runner;
  @Mixin WriteOptions write;
  @Mixin StoreOptions store;
  @Mixin ClusterOptions cluster;

  @Option(names = "--chaos", defaultValue = "none",
      description = "Faults in the measurement window, comma-separated. kill-ingest:N = kill -9 the ingestion process "
          + "N times at random moments and restart it (it resumes from its committed Kafka offsets). With --cluster: "
          + "kill-taskmanager = kill -9 one Flink TaskManager and start it again 3 s later (the job restarts from its "
          + "last checkpoint), kill-broker = the same for one Kafka broker, restart-postgres = pg_ctlcluster restart "
          + "(every connection cut; affects everything using that server). The summary reports lost and "
          + "duplicated rows. Default: ${DEFAULT-VALUE}.")
  String chaos;

  @Override
  public Integer call() throws Exception {
    String runId = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
        + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    Path dir = runDir != null ? runDir : Path.of("runs", runId);
    if (cluster.enabled()) bootstrapServers = cluster.applyTo(runner, store, bootstrapServers, runId, dir).bootstrapServers();
    EventGenerator.Config gen = new EventGenerator.Config(bootstrapServers, "events-" + runId,
        schema.load(), schema.transportFormat, generator.toSettings(), generator.seed, generator.producers,
        0, generator.ratePerSec, 0, duration, Map.of());
    List<String> ingestArgs = new ArrayList<>(schema.asArgs());
    ingestArgs.addAll(runner.asArgs());
    ingestArgs.addAll(write.asArgs());
    Chaos chaosPlan = Chaos.parse(chaos);
    if (!chaosPlan.clusterFaults().isEmpty() && !cluster.enabled()) {
      throw new IllegalArgumentException("--chaos=" + chaos + " injects faults into a cluster: add --cluster");
    }
    if (chaosPlan.ingestKills() > 0 && cluster.enabled()) {
      throw new IllegalArgumentException("--chaos=kill-ingest:N kills the local ingestion process; with --cluster "
          + "the job runs on the TaskManagers: use kill-taskmanager");
    }
    if (cluster.enabled()) chaosPlan = chaosPlan.onCluster(cluster.cluster);
    write.toSettings(); // user errors now, not in the child
    StoreSpec storeSpec = store.store == StoreOptions.Store.duckdb && store.db == null ? null
        : store.toSpec(dir.toAbsolutePath().resolve("streamlab.duckdb"));
    RunResult result = new LabRun(new LabRun.Config(dir.toAbsolutePath(), bootstrapServers, partitions, table,
        gen, warmup, ingestArgs, drainTimeout, progressInterval, storeSpec, chaosPlan), System.out,
        StoreOptions::asArgs).execute();
    return result.exitCode();
  }
}
