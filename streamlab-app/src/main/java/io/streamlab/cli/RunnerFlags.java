package io.streamlab.cli;

import io.streamlab.pipeline.RunnerChoice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Which Beam runner executes ingestion, read from Beam's own options as the command's flags
 * ({@link BeamFlags#RUNNER}, {@link BeamFlags#DATAFLOW}, {@link RunnerOptions}), and any further
 * Beam option ({@code --beamArg}). Shared by ingest, run and sinkbench, whose transformers add
 * those flags.
 */
final class RunnerFlags {
  @Option(names = "--beamArg", paramLabel = "--NAME=VALUE",
      description = "Any further Beam pipeline option, passed as is (repeatable), e.g. --beamArg=--checkpointingInterval=10000; "
          + "it wins over what streamlab sets for the runner (--fasterCopy=true, --disableMetrics=true). A name Beam "
          + "does not know is refused before anything starts.")
  List<String> beamArgs = new ArrayList<>();

  @Spec(Spec.Target.MIXEE) CommandSpec command;

  /** The value of Beam's option {@code property} as the command has it (given or streamlab's default); null if neither. */
  @SuppressWarnings("unchecked")
  <T> T value(String property) {
    return (T) command.findOption("--" + property).getValue();
  }

  /** Sets Beam's option {@code property}, as if given: what a run chose (a cluster's master) is what results.json shows. */
  void set(String property, Object value) {
    command.findOption("--" + property).setValue(value);
  }

  String runner() {
    return value("runner");
  }

  /** True when the pipeline is submitted to a Flink cluster rather than run in this JVM. */
  boolean onFlinkCluster() {
    String master = value("flinkMaster");
    return runner().startsWith("Flink") && !master.equals("[local]") && !master.equals("[auto]");
  }

  /** Refuses nonsense values (exit 2) before anything starts. */
  void validate() {
    Integer parallelism = value("parallelism");
    Preflight.atLeast(Map.of("--parallelism", parallelism == null ? 0 : parallelism), 0); // 0 = one per core
    Preflight.atLeast(Map.of("--maxBundleSize", (Long) value("maxBundleSize"),
        "--maxBundleTimeMills", (Long) value("maxBundleTimeMills"), "--appendBatchSize", appendBatchSize()), 1);
  }

  /** Parallelism 0 or not given becomes this machine's cores, so that the child is told and results.json shows it. */
  void resolveParallelism() {
    Integer p = value("parallelism");
    if (p == null || p == 0) set("parallelism", Runtime.getRuntime().availableProcessors());
  }

  /**
   * AUTO becomes the reader it means here, so that results.json names the reader that ran. A run
   * on this machine or a Flink cluster is never a Dataflow job (with --cloud=gcp it reads Pub/Sub).
   */
  void resolveKafkaReader() {
    set("kafkaReader", options().getKafkaReader().on(false));
  }

  int appendBatchSize() {
    return options().getAppendBatchSize();
  }

  RunnerOptions options() {
    return BeamFlags.options(command, RunnerOptions.class);
  }

  /**
   * The runner's Beam options as flags, from the options themselves, and --beamArg's: what the
   * ingestion child is given (its ingestion options besides, {@link BeamFlags#ingestionArgs}).
   */
  List<String> childArgs() {
    List<String> args = new ArrayList<>(BeamFlags.beamArgs(command, BeamFlags.RUNNER));
    for (String b : beamArgs) args.add("--beamArg=" + b);
    return args;
  }

  /** Dataflow's options given, as Beam arguments. */
  List<String> dataflowArgs() {
    return BeamFlags.beamArgs(command, BeamFlags.DATAFLOW);
  }

  /**
   * Beam's options from the runner's flags, {@code more} and --beamArg (winning), parsed by
   * {@code PipelineOptionsFactory}, which refuses a name it does not know ("Did you mean ...?")
   * and a value of the wrong type: so a run checks its child's options before starting it.
   */
  PipelineOptions check(List<String> more) {
    List<String> args = new ArrayList<>(BeamFlags.beamArgs(command, BeamFlags.RUNNER));
    args.addAll(more);
    args.addAll(beamArgs);
    try {
      return PipelineOptionsFactory.fromArgs(RunnerChoice.lastWins(args).toArray(String[]::new)).create();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Beam options: " + e.getMessage(), e);
    }
  }

  /**
   * The runner as the flags say, {@code extra} Beam arguments added (--beamArg's last, winning).
   * Parallelism 0 or not given is one per core of this machine.
   */
  RunnerChoice choice(List<String> extra) {
    Integer p = value("parallelism");
    List<String> args = new ArrayList<>(extra);
    args.addAll(beamArgs);
    return new RunnerChoice(runner(), value("flinkMaster"), p == null || p == 0 ? Runtime.getRuntime().availableProcessors() : p,
        Math.toIntExact(value("maxBundleSize")), value("maxBundleTimeMills"), args, options().getBindAddress());
  }
}
