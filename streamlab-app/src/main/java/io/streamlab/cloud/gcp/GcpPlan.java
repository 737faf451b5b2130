package io.streamlab.cloud.gcp;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.store.bigquery.BigQueryTable;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code --cloud=gcp} run creates, named after its run id so that runs never share a
 * resource, and what it may cost in worker-hours: printed before anything starts.
 *
 * @param workers the most workers the job may use ({@code --maxNumWorkers}; the estimate assumes all of them)
 * @param workerMachineType the workers' machine type
 * @param dataflowOptions Dataflow's options for the job as {@code streamlab ingest} takes them
 *     (project, region, workers and the others the user gave)
 * @param window how long the run generates and drains, as the run's mode and flags say
 */
public record GcpPlan(String project, String region, String runId, int workers, String workerMachineType,
    List<String> dataflowOptions, Duration window) {
  /**
   * A streaming job's start (workers booted, the pipeline deployed: 3-5 min on Dataflow) and its
   * cancellation, added to every run's estimate.
   */
  public static final Duration JOB_OVERHEAD = Duration.ofMinutes(6);

  public GcpPlan {
    if (project == null || !project.matches("[a-z][a-z0-9.:-]{4,61}[a-z0-9]")) {
      throw new IllegalArgumentException("--cloud=gcp needs --project=PROJECT_ID (a Google Cloud project id), got: " + project);
    }
    if (region == null || !region.matches("[a-z]+-[a-z]+[0-9]+")) {
      throw new IllegalArgumentException("--cloud=gcp needs --region=REGION (e.g. us-central1), got: " + region);
    }
    if (workers < 1) throw new IllegalArgumentException("--maxNumWorkers must be >= 1: " + workers);
    dataflowOptions = List.copyOf(dataflowOptions);
  }

  /** Resource names: lower case, digits and dashes (Pub/Sub, Dataflow); BigQuery datasets take underscores. */
  private String base() {
    return "sl-" + runId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
  }

  public String topic() {
    return "projects/" + project + "/topics/" + base();
  }

  public String subscription() {
    return "projects/" + project + "/subscriptions/" + base();
  }

  public String dataset() {
    return base().replace('-', '_');
  }

  public BigQueryTable table() {
    return new BigQueryTable(project, dataset(), "events");
  }

  public BigQueryTable deadLetterTable() {
    return table().sibling(DeadLetters.tableFor(table().table()));
  }

  public String jobName() {
    return base() + "-ingest";
  }

  /** Wall time the job runs: the window and the job's start and stop. */
  public Duration jobTime() {
    return window.plus(JOB_OVERHEAD);
  }

  /** At most this many worker-hours: every worker for the whole of {@link #jobTime}. */
  public double workerHours() {
    return workers * jobTime().toSeconds() / 3600.0;
  }

  /** The runner, Dataflow's options and the job's name, as {@code streamlab ingest} takes them. */
  public List<String> dataflowArgs() {
    List<String> a = new ArrayList<>(List.of("--runner=DataflowRunner"));
    a.addAll(dataflowOptions);
    a.add("--beamArg=--jobName=" + jobName()); // streaming: set by the ingestion itself (RunnerChoice)
    return a;
  }

  /** What the run will create and what it may cost, for the user to read before saying --yes. */
  public void print(PrintStream out) {
    out.println("[streamlab] --cloud=gcp: this run creates, in project " + project + " (region " + region + "):");
    out.println("  Pub/Sub topic         " + topic());
    out.println("  Pub/Sub subscription  " + subscription());
    out.println("  BigQuery dataset      " + project + ":" + dataset() + " (tables " + table().table() + ", "
        + deadLetterTable().table() + ")");
    out.println("  Dataflow job          " + jobName() + " (streaming, Streaming Engine, at most " + workers + " x "
        + workerMachineType + ")");
    out.println("  the generator runs on this machine and publishes to the topic");
    out.printf(Locale.ROOT, "  estimate: at most %.2f worker-hours (%d workers x %.2f h: %s of generation and drain + %d min "
            + "job start and stop)%n", workerHours(), workers, jobTime().toSeconds() / 3600.0, human(window),
        JOB_OVERHEAD.toMinutes());
    out.println("  all of it is removed at the end (the job cancelled, the dataset deleted) unless --keep");
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 60 ? (s / 60) + " min " + (s % 60) + " s" : s + " s";
  }
}
