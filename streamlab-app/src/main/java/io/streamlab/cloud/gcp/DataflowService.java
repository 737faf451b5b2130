package io.streamlab.cloud.gcp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a {@code --cloud=gcp} run asks of Dataflow: the ingestion submitted as a streaming job,
 * watched, and cancelled. {@link RealDataflow} submits with {@code streamlab ingest
 * --runner=DataflowRunner} (Beam's own submission) and watches through Dataflow's API; tests use
 * a named fake.
 */
public interface DataflowService extends AutoCloseable {
  /** What {@code streamlab ingest --runner=DataflowRunner} prints once Dataflow accepted its job, then the job id. */
  String JOB_ID_LINE = "[streamlab] Dataflow job id: ";

  /**
   * Submits {@code streamlab ingest} with {@code ingestArgs} (the first is "ingest") as the job
   * {@code jobName}; returns once Dataflow has accepted it. Submission output goes to {@code log}.
   */
  Job submit(String jobName, List<String> ingestArgs, Path log) throws Exception;

  /** One submitted job. */
  interface Job {
    String id();

    /** Dataflow's state, e.g. JOB_STATE_RUNNING. */
    String state() throws Exception;

    /** True once workers process elements (a streaming job is RUNNING minutes before its workers are up). */
    boolean workersUp() throws Exception;

    /** vCPU time of every worker so far (Dataflow's TotalVcpuTime), zero until reported. */
    Duration vcpuTime() throws Exception;

    /** Cancels the job and waits (at most {@code timeout}) until Dataflow says it is cancelled. */
    void cancel(Duration timeout) throws Exception;
  }

  @Override
  default void close() {}
}
