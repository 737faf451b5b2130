package io.streamlab.bench;

import io.streamlab.generator.GeneratorStats;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.store.StoreSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Where the ingestion pipeline runs, as {@link LabRun} sees it: started, watched (status, latency,
 * CPU), killed and restarted, stopped. One implementation per place, after OpenMessaging
 * Benchmark's driver seam, so a run never asks where it is: {@link ChildIngestion} ({@code
 * streamlab ingest} as a child process running the pipeline on the embedded runner) and {@link
 * ClusterIngestion} (the same child submitting the job to a Flink cluster, whose TaskManagers do
 * the work) and, with {@code --cloud=gcp}, the job on Dataflow ({@code cloud.gcp.DataflowIngestion}). Counters and CPU time are totals over every restart.
 */
public interface Ingestion extends AutoCloseable {
  /** Starts ingestion in one place. */
  @FunctionalInterface
  interface Launcher {
    Ingestion start(Launch launch) throws IOException;
  }

  /**
   * What every place needs to start and watch one ingestion.
   *
   * @param args the {@code streamlab ingest} flags
   * @param logFile where the ingestion's output goes
   * @param latencyLog the HdrHistogram log the ingestion's writers append to ({@code --latencyLog})
   * @param store the table's store
   * @param table the table
   */
  record Launch(List<String> args, Path logFile, Path latencyLog, StoreSpec store, String table) {}

  /** {@code streamlab ingest} as a child process running the pipeline on the embedded runner. */
  static Launcher inChildProcess() {
    return ChildIngestion::new;
  }

  /** The job on the Flink cluster of {@code streamlab cluster up} whose directory is {@code clusterDir}. */
  static Launcher onCluster(Path clusterDir) {
    return ClusterIngestion.on(clusterDir);
  }

  /** Waits until the pipeline runs (a writer has opened its table). */
  void awaitReady(Duration timeout) throws InterruptedException;

  boolean isAlive();

  /** Counters so far. */
  IngestStatus status();

  /**
   * How many status reports have come so far. Where {@link #status} changes only when a report
   * comes (once a status interval), a count to compare with it (the generator's, for a backlog)
   * must be taken when the report comes, not later ({@link Sampler}). -1 where the counters are
   * read on demand.
   */
  default long statusReports() {
    return -1;
  }

  /** Where the counters lag the table (a remote metrics API), waits until they stop moving; else returns. */
  default void awaitStatusSettled() throws InterruptedException {}

  /**
   * Ends the current latency interval: latency intervals from the returned time on hold only
   * events sent after it.
   *
   * @return the mark, epoch millis
   */
  long markLatencyInterval() throws IOException, InterruptedException;

  /** CPU time of the pipeline's own processes so far (broker, generator and store servers excluded). */
  Duration cpuTime();

  /** Mean payload bytes of an event ingested, from {@code status} or, where the pipeline's counts are not at hand, from {@code generated}. */
  double bytesPerEvent(IngestStatus status, GeneratorStats generated);

  /**
   * End-to-end latency of the events of {@code producers} made visible in [{@code fromMark},
   * {@code toMark}) (marks from {@link #markLatencyInterval}; {@code Long.MAX_VALUE}: until now),
   * and every second's latency over the whole run for the time series.
   */
  TableLatency latency(Set<Integer> producers, long fromMark, long toMark) throws Exception;

  /**
   * What the table holds against what was sent ({@link TableVerifier}), once ingestion stopped:
   * read where this ingestion writes (a JDBC store, or BigQuery by query).
   */
  Verification verify(java.util.Map<Integer, Long> expectedPerProducer, Set<Integer> measuredProducers) throws Exception;

  /** The verification of {@code launch}'s table in its JDBC store (DuckDB, PostgreSQL). */
  static Verification verifyInStore(Launch launch, java.util.Map<Integer, Long> expectedPerProducer,
      Set<Integer> measuredProducers) throws Exception {
    try (io.streamlab.store.TableStore s = launch.store().undecorated().open();
        java.sql.Connection c = s.openQueryConnection()) {
      return TableVerifier.verify(c, launch.table(), expectedPerProducer, measuredProducers);
    }
  }

  /**
   * kill -9 of the pipeline's process, then a new one, waited for until it runs.
   *
   * @param caughtUp whether every event sent so far is through the pipeline and none is still to
   *     come: a process started then may have nothing to write, so the kill need not wait for it to
   */
  void killAndRestart(Duration readyTimeout, BooleanSupplier caughtUp) throws IOException, InterruptedException;

  int kills();

  /** How each figure was measured here, printed with the figures. */
  FigureSources figureSources();

  /** Stops the pipeline. */
  @Override
  void close() throws InterruptedException;
}
