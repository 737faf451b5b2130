package io.streamlab.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Dataflow's own pipeline options for {@code ingest --runner=DataflowRunner} (and {@code --dryRun})
 * and {@code run --cloud=gcp},
 * passed to Beam under the same names, so Beam parses and validates them as it documents them.
 * Unset means Beam's and Dataflow's own default. Any other Dataflow option: {@code --beamArg}.
 */
final class DataflowOptions {
  @Option(names = "--project", description = "DataflowRunner: Google Cloud project that runs the job. Default: gcloud's.")
  String project;

  @Option(names = "--region", description = "DataflowRunner: region of the job, e.g. us-central1 (required by Dataflow).")
  String region;

  @Option(names = "--tempLocation", paramLabel = "gs://BUCKET/PATH",
      description = "DataflowRunner: Cloud Storage path for temporary files and staging. Default: Dataflow creates a bucket.")
  String tempLocation;

  @Option(names = "--maxNumWorkers", description = "DataflowRunner: most workers autoscaling may use. Default: Dataflow's.")
  Integer maxNumWorkers;

  @Option(names = "--workerMachineType", description = "DataflowRunner: worker machine type, e.g. n2-standard-4. Default: Dataflow's.")
  String workerMachineType;

  @Option(names = "--enableStreamingEngine", negatable = true, fallbackValue = "true",
      description = "DataflowRunner: run the shuffle and state in Dataflow's Streaming Engine (--no-enableStreamingEngine: on the workers). Default: Dataflow's.")
  Boolean enableStreamingEngine;

  @Option(names = "--autoscalingAlgorithm", paramLabel = "NONE|THROUGHPUT_BASED",
      description = "DataflowRunner: NONE (a fixed --beamArg=--numWorkers=N) or THROUGHPUT_BASED. Default: Dataflow's.")
  String autoscalingAlgorithm;

  @Option(names = "--experiments", split = ",", paramLabel = "EXPERIMENT",
      description = "DataflowRunner: Dataflow experiments, comma-separated (e.g. use_runner_v2). Default: none.")
  List<String> experiments = new ArrayList<>();

  /** The options given, as Beam arguments. */
  List<String> asBeamArgs() {
    List<String> a = new ArrayList<>();
    if (project != null) a.add("--project=" + project);
    if (region != null) a.add("--region=" + region);
    if (tempLocation != null) a.add("--tempLocation=" + tempLocation);
    if (maxNumWorkers != null) a.add("--maxNumWorkers=" + maxNumWorkers);
    if (workerMachineType != null) a.add("--workerMachineType=" + workerMachineType);
    if (enableStreamingEngine != null) a.add("--enableStreamingEngine=" + enableStreamingEngine);
    if (autoscalingAlgorithm != null) a.add("--autoscalingAlgorithm=" + autoscalingAlgorithm);
    if (!experiments.isEmpty()) a.add("--experiments=" + String.join(",", experiments));
    return a;
  }
}
