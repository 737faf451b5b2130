package io.streamlab.cloud.gcp;

import io.streamlab.bench.FigureSources;
import io.streamlab.bench.Ingestion;
import io.streamlab.bench.TableLatency;
import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.schema.SystemColumns;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The ingestion as a streaming Dataflow job (Pub/Sub subscription in, BigQuery table out). Its
 * workers are Google's machines, so every figure is read from outside: counts and latency from
 * the BigQuery table by query, CPU from the job's vCPU time (Dataflow's metric), bytes from the
 * generator (the job reads exactly the generated messages). The job is cancelled when it stops.
 */
public final class DataflowIngestion implements Ingestion {
  /** Counts are queried at most this often: each is a BigQuery query (billed, and ~1 s). */
  static final Duration STATUS_INTERVAL = Duration.ofSeconds(5);
  private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(5);
  private final GcpServices gcp;
  private final GcpPlan plan;
  private final DataflowService.Job job;
  private IngestStatus status = IngestStatus.NONE;
  private long statusAt;
  private Duration vcpu = Duration.ZERO;

  private DataflowIngestion(GcpServices gcp, GcpPlan plan, Launch launch) throws Exception {
    this.gcp = gcp;
    this.plan = plan;
    List<String> args = new ArrayList<>(launch.args());
    args.addAll(plan.dataflowArgs());
    job = gcp.dataflow().submit(plan.jobName(), args, launch.logFile());
  }

  /** Ingestion on Dataflow for the run planned in {@code plan}, its resources already made. */
  public static Launcher launcher(GcpServices gcp, GcpPlan plan) {
    return launch -> {
      try {
        return new DataflowIngestion(gcp, plan, launch);
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("submitting the Dataflow job " + plan.jobName() + " failed: " + e.getMessage(), e);
      }
    };
  }

  /** How the verification and latency queries name the run's tables and its write time, in GoogleSQL. */
  public static TableVerifier.Dialect dialect(GcpPlan plan) {
    return new TableVerifier.Dialect(t -> "`" + plan.project() + "." + plan.dataset() + "." + t + "`", "STRING",
        "UNIX_MICROS(" + GcpResources.WRITE_TIME + ")", false);
  }

  private TableVerifier.Query query() {
    return sql -> gcp.bigQuery().query(plan.project(), sql);
  }

  @Override
  public void awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!job.workersUp()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the Dataflow job " + job.id() + " has no worker up after " + timeout.toSeconds()
              + " s (state " + job.state() + ")");
        }
        Thread.sleep(2_000);
      }
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("watching the Dataflow job " + job.id() + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean isAlive() {
    try {
      String s = job.state();
      return !s.endsWith("FAILED") && !s.endsWith("CANCELLED") && !s.endsWith("DONE") && !s.endsWith("DRAINED");
    } catch (Exception e) {
      return true; // a failed look is not a failed job; the drain's timeout bounds the wait
    }
  }

  /** Rows in the table and its dead-letter table, queried at most every {@link #STATUS_INTERVAL}. */
  @Override
  public synchronized IngestStatus status() {
    long now = System.nanoTime();
    if (statusAt != 0 && now - statusAt < STATUS_INTERVAL.toNanos()) return status;
    statusAt = now;
    try {
      TableVerifier.Dialect d = dialect(plan);
      List<Object> c = gcp.bigQuery().query(plan.project(), "SELECT (SELECT count(*) FROM "
          + d.table().apply(plan.table().table()) + "), (SELECT count(*) FROM "
          + d.table().apply(DeadLetters.tableFor(plan.table().table())) + ")").get(0);
      long rows = Long.parseLong(c.get(0).toString()), failed = Long.parseLong(c.get(1).toString());
      status = new IngestStatus(true, rows + failed, 0, rows, failed, IngestStatus.UNKNOWN, 0, 0, Map.of());
    } catch (Exception e) {
      // a failed count keeps the last one: the drain waits and its timeout ends a lasting failure
    }
    return status;
  }

  @Override
  public long markLatencyInterval() {
    return System.currentTimeMillis(); // latency comes from the table, told apart by producer
  }

  @Override
  public synchronized Duration cpuTime() {
    try {
      vcpu = job.vcpuTime();
    } catch (Exception e) {
      // the last one read
    }
    return vcpu;
  }

  @Override
  public double bytesPerEvent(IngestStatus status, GeneratorStats generated) {
    return generated.sent() == 0 ? 0 : (double) generated.bytes() / generated.sent();
  }

  @Override
  public TableLatency latency(Set<Integer> producers, long fromMark, long toMark) throws Exception {
    return TableLatency.read(query(), dialect(plan), plan.table().table(), producers);
  }

  @Override
  public Verification verify(Map<Integer, Long> expected, Set<Integer> measured) throws Exception {
    return TableVerifier.verify(query(), dialect(plan), plan.table().table(), true, expected, measured);
  }

  @Override
  public void killAndRestart(Duration readyTimeout, BooleanSupplier caughtUp) {
    throw new UnsupportedOperationException("--chaos is not supported with --cloud=gcp");
  }

  @Override
  public int kills() {
    return 0;
  }

  @Override
  public FigureSources figureSources() {
    return new FigureSources(
        "Dataflow's TotalVcpuTime of job " + job.id() + " (every worker's vCPU time; the service's shuffle and "
            + "Streaming Engine not included)",
        "rows written in the window (counted in the table) x mean payload bytes per event as generated "
            + "(the job reads exactly the generated messages)",
        "not measured on Dataflow (0)",
        "the BigQuery table: " + GcpResources.WRITE_TIME + " (the table's DEFAULT CURRENT_TIMESTAMP(), set by BigQuery "
            + "on arrival) - " + SystemColumns.SEND_TIME_MICROS + " of each measured row's first write");
  }

  @Override
  public void close() throws InterruptedException {
    try {
      job.cancel(CANCEL_TIMEOUT);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cancelling the Dataflow job " + job.id() + " failed; cancel it by hand: "
          + "gcloud dataflow jobs cancel " + job.id() + " --region=" + plan.region() + " (" + e.getMessage() + ")", e);
    }
  }
}
