package io.streamlab.cli;

import io.streamlab.cloud.gcp.GcpPlan;
import io.streamlab.cloud.gcp.GcpServices;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code run --cloud=gcp}: the study's own system, Pub/Sub -> Dataflow -> BigQuery, in a Google Cloud project. */
final class CloudOptions {
  /** Where a run's pipeline and services are. */
  enum Cloud { none, gcp }

  @Option(names = "--cloud", defaultValue = "none",
      description = "gcp: run in a Google Cloud project (--project, --region and Dataflow's other options below; "
          + "--maxNumWorkers " + DEFAULT_WORKERS + " and --workerMachineType " + DEFAULT_MACHINE_TYPE + " unless given) "
          + "as the study did: the generator publishes to a Pub/Sub topic made for "
          + "the run, the ingestion runs as a streaming Dataflow job (--store=bigquery, the run's --writeMethod and "
          + "flags), the table is a BigQuery table in a dataset made for the run, verified by query; everything made "
          + "is removed at the end unless --keep. Prints what it will create and a worker-hour estimate, and needs "
          + "--yes. Credentials: Application Default Credentials. Default: ${DEFAULT-VALUE} (this machine).")
  Cloud cloud;

  @Option(names = "--yes", description = "--cloud=gcp: go ahead and create what the plan printed (it costs money).")
  boolean yes;

  @Option(names = "--keep", description = "--cloud=gcp: keep the topic, subscription and dataset at the end (the job is cancelled).")
  boolean keep;

  /** The Google services a cloud run uses: the real ones; tests put their fakes here. */
  GcpServices.Factory services = GcpServices::real;

  boolean enabled() {
    return cloud == Cloud.gcp;
  }

  /** The most workers of a cloud run's job, unless --maxNumWorkers says: a bound for the estimate. */
  static final int DEFAULT_WORKERS = 2;
  static final String DEFAULT_MACHINE_TYPE = "n2-standard-2";

  /**
   * @param dataflow the command's flags with Dataflow's options as given (--project and --region
   *     required; --maxNumWorkers {@value #DEFAULT_WORKERS}, --workerMachineType
   *     {@value #DEFAULT_MACHINE_TYPE} and Streaming Engine set unless given)
   * @param window how long the run generates and drains
   */
  static GcpPlan plan(RunnerFlags dataflow, String runId, Duration window) {
    if (dataflow.value("maxNumWorkers") == null) dataflow.set("maxNumWorkers", DEFAULT_WORKERS);
    if (dataflow.value("workerMachineType") == null) dataflow.set("workerMachineType", DEFAULT_MACHINE_TYPE);
    if (dataflow.value("enableStreamingEngine") == null) dataflow.set("enableStreamingEngine", true);
    return new GcpPlan(dataflow.value("project"), dataflow.value("region"), runId, dataflow.value("maxNumWorkers"),
        dataflow.value("workerMachineType"), dataflow.dataflowArgs(), window);
  }

  /** {@code plan} printed; refused (exit 2) without --yes, before anything is created. */
  GcpPlan approvedPlan(GcpPlan plan, PrintStream out) {
    plan.print(out);
    if (!yes) {
      throw new IllegalArgumentException("--cloud=gcp creates the resources above in project " + plan.project()
          + " and runs a Dataflow job, which Google bills: add --yes to go ahead (nothing was created)");
    }
    return plan;
  }
}
