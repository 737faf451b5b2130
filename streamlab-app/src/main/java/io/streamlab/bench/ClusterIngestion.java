package io.streamlab.bench;

import io.streamlab.cluster.ClusterState;
import io.streamlab.cluster.TaskManagerCpu;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.store.TableStore;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Ingestion on a Flink cluster ({@code streamlab cluster up}): a {@code streamlab ingest} client
 * process submits the job and reports its status from the table and Flink's REST API, and the
 * work is done in the TaskManagers, other JVMs. So the TaskManagers' CPU is measured
 * ({@link TaskManagerCpu}), latency is read back from the table ({@link TableLatency}), and bytes
 * are derived from the generator (the job reads exactly the generated messages).
 */
final class ClusterIngestion implements Ingestion {
  private static final Duration SETTLE_LIMIT = Duration.ofSeconds(20);
  private final Launch launch;
  private final ChildIngestion client;
  private final TaskManagerCpu taskManagers;

  private ClusterIngestion(Launch launch, ClusterState cluster) throws IOException {
    this.launch = launch;
    this.taskManagers = new TaskManagerCpu(cluster);
    this.client = new ChildIngestion(launch);
  }

  /** Ingestion on the cluster whose state is in {@code clusterDir}. */
  static Launcher on(Path clusterDir) {
    return launch -> new ClusterIngestion(launch, ClusterState.load(clusterDir));
  }

  @Override
  public void awaitReady(Duration timeout) throws InterruptedException {
    client.awaitReady(timeout);
  }

  @Override
  public boolean isAlive() {
    return client.isAlive();
  }

  @Override
  public IngestStatus status() {
    return client.status();
  }

  @Override
  public long statusReports() {
    return client.statusReports();
  }

  /**
   * Flink's REST metrics (the shuffle bytes) lag the table by seconds, most after a job restart,
   * when a backlog drains in a burst the metrics have not caught up with: waits until they stop
   * moving (at most 20 s).
   */
  @Override
  public void awaitStatusSettled() throws InterruptedException {
    long deadline = System.nanoTime() + SETTLE_LIMIT.toNanos();
    long seen = status().bytesShuffled();
    while (System.nanoTime() < deadline) {
      Thread.sleep(3_000);
      long now = status().bytesShuffled();
      if (now == seen) return;
      seen = now;
    }
  }

  @Override
  public long markLatencyInterval() throws IOException, InterruptedException {
    return client.markLatencyInterval();
  }

  @Override
  public Duration cpuTime() {
    return taskManagers.get();
  }

  /** The job's read counters live in the TaskManagers, but it reads exactly the generated messages. */
  @Override
  public double bytesPerEvent(IngestStatus status, GeneratorStats generated) {
    return generated.sent() == 0 ? 0 : (double) generated.bytes() / generated.sent();
  }

  /** From the table: the writers' histograms are in the TaskManagers. The marks are not needed, the producers tell the events apart. */
  @Override
  public TableLatency latency(Set<Integer> producers, long fromMark, long toMark) throws Exception {
    try (TableStore s = launch.store().undecorated().open(); Connection c = s.openQueryConnection()) {
      return TableLatency.read(c, launch.table(), producers);
    }
  }

  @Override
  public Verification verify(java.util.Map<Integer, Long> expected, Set<Integer> measured) throws Exception {
    return client.verify(expected, measured);
  }

  /** A TaskManager is killed with --chaos=kill-taskmanager (ClusterFault), not the client. */
  @Override
  public void killAndRestart(Duration readyTimeout, BooleanSupplier caughtUp) {
    throw new UnsupportedOperationException("on a cluster the job runs on the TaskManagers: use --chaos=kill-taskmanager");
  }

  @Override
  public int kills() {
    return 0;
  }

  @Override
  public FigureSources figureSources() {
    return FigureSources.cluster(taskManagers.pids());
  }

  @Override
  public void close() throws InterruptedException {
    client.close();
  }
}
