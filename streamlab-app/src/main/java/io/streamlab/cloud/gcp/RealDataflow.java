package io.streamlab.cloud.gcp;


import com.google.api.services.dataflow.model.MetricUpdate;
import io.streamlab.process.JavaProcess;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.runners.dataflow.DataflowClient;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Dataflow as a user would use it: the job is submitted by {@code streamlab ingest
 * --runner=DataflowRunner} (Beam's own submission, in a child process, which prints the job's id:
 * {@link DataflowService#JOB_ID_LINE}), then watched and cancelled through Dataflow's API (Beam's
 * {@link DataflowClient}), Application Default Credentials. Never run against the real service
 * in this project's tests (no network to Google here): see the README.
 */
final class RealDataflow implements DataflowService {
  private static final Pattern JOB_ID = Pattern.compile(Pattern.quote(JOB_ID_LINE) + "(\\S+)");
  /** Submission stages the jar (~200 MB) to Cloud Storage first. */
  private static final Duration SUBMIT_TIMEOUT = Duration.ofMinutes(15);
  private static final Set<String> DONE = Set.of("JOB_STATE_CANCELLED", "JOB_STATE_DONE", "JOB_STATE_FAILED",
      "JOB_STATE_DRAINED", "JOB_STATE_UPDATED");
  private final DataflowClient client;

  RealDataflow(String project, String region) {
    DataflowPipelineOptions o = PipelineOptionsFactory.as(DataflowPipelineOptions.class);
    o.setProject(project);
    o.setRegion(region);
    client = DataflowClient.create(o);
  }

  @Override
  public DataflowService.Job submit(String jobName, List<String> ingestArgs, Path log) throws Exception {
    Process p = JavaProcess.builder("io.streamlab.cli.Main").args(ingestArgs).startLoggingTo(log);
    long deadline = System.nanoTime() + SUBMIT_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher m = JOB_ID.matcher(Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "");
      if (m.find()) return new RealJob(m.group(1), p);
      if (!p.isAlive()) throw new IllegalStateException("the Dataflow submission failed (exit " + p.exitValue() + "); see " + log);
      Thread.sleep(1_000);
    }
    p.destroy();
    throw new IllegalStateException("no Dataflow job id within " + SUBMIT_TIMEOUT.toMinutes() + " min; see " + log);
  }

  /** @param submitter the child that submitted it, waiting on the job; stopped once the job is cancelled */
  private final class RealJob implements DataflowService.Job {
    private final String id;
    private final Process submitter;

    RealJob(String id, Process submitter) {
      this.id = id;
      this.submitter = submitter;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public String state() throws Exception {
      return client.getJob(id).getCurrentState();
    }

    /** Workers report metrics only once they process elements. */
    @Override
    public boolean workersUp() throws Exception {
      List<MetricUpdate> m = client.getJobMetrics(id).getMetrics();
      return m != null && !m.isEmpty();
    }

    @Override
    public Duration vcpuTime() throws Exception {
      List<MetricUpdate> metrics = client.getJobMetrics(id).getMetrics();
      if (metrics == null) return Duration.ZERO;
      for (MetricUpdate u : metrics) {
        if ("TotalVcpuTime".equals(u.getName().getName()) && u.getScalar() != null) {
          return Duration.ofMillis(new BigDecimal(u.getScalar().toString()).movePointRight(3).longValue());
        }
      }
      return Duration.ZERO;
    }

    @Override
    public void cancel(Duration timeout) throws Exception {
      try {
        client.updateJob(id, new com.google.api.services.dataflow.model.Job().setRequestedState("JOB_STATE_CANCELLED"));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!DONE.contains(state()) && System.nanoTime() < deadline) Thread.sleep(5_000);
      } finally {
        JavaProcess.stop(submitter, 5_000);
      }
    }
  }
}
