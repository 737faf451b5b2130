package io.streamlab.bench;

import io.streamlab.generator.GeneratorStats;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.pipeline.IngestStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * {@code streamlab ingest} as a child process ({@link IngestProcess}) running the pipeline on the
 * embedded runner, which {@code --chaos} may kill -9 and restart: counters and CPU time are the
 * totals over every process so far, so a run's figures include the work a killed process did and
 * the work its successor repeated. Latency is what the writers recorded in the latency log.
 */
final class ChildIngestion implements Ingestion {
  private final Launch launch;
  private IngestProcess current;
  private IngestStatus before = IngestStatus.NONE;
  private Duration cpuBefore = Duration.ZERO;
  private long reportsBefore;
  private int kills;

  ChildIngestion(Launch launch) throws IOException {
    this.launch = launch;
    current = new IngestProcess(launch.args(), launch.logFile());
  }

  @Override
  public IngestStatus status() {
    return before.plus(current.status());
  }

  @Override
  public long statusReports() {
    return reportsBefore + current.statusLines();
  }

  @Override
  public Duration cpuTime() {
    return cpuBefore.plus(current.cpuTime());
  }

  @Override
  public boolean isAlive() {
    return current.isAlive();
  }

  @Override
  public int kills() {
    return kills;
  }

  @Override
  public void awaitReady(Duration timeout) throws InterruptedException {
    current.awaitReady(timeout, launch.logFile());
  }

  @Override
  public long markLatencyInterval() throws IOException, InterruptedException {
    return current.markLatencyInterval();
  }

  /** Payload bytes the read stage counted, per event read. */
  @Override
  public double bytesPerEvent(IngestStatus status, GeneratorStats generated) {
    return status.eventsRead() == 0 ? 0 : (double) status.bytesRead() / status.eventsRead();
  }

  /** From the latency log: the writers record each row's latency when its append returns. */
  @Override
  public TableLatency latency(Set<Integer> producers, long fromMark, long toMark) throws Exception {
    return new TableLatency(LatencyLog.read(launch.latencyLog(), fromMark, toMark), LatencyLog.intervals(launch.latencyLog()));
  }

  @Override
  public Verification verify(java.util.Map<Integer, Long> expected, Set<Integer> measured) throws Exception {
    return Ingestion.verifyInStore(launch, expected, measured);
  }

  @Override
  public FigureSources figureSources() {
    return FigureSources.EMBEDDED;
  }

  /**
   * kill -9, then start a new ingestion process and wait until it runs. The process is killed
   * only once it has written rows, or once the run is caught up, or after {@code readyTimeout}: on
   * a loaded machine a restarted process can take longer to start than the gap to the next kill,
   * and killing it before it did anything would test nothing; but one started after its
   * predecessor wrote the last events and committed their offsets has nothing to write, and
   * waiting for its rows would only wait out the timeout.
   */
  @Override
  public void killAndRestart(Duration readyTimeout, BooleanSupplier caughtUp) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    while (current.status().rowsWritten() == 0 && !caughtUp.getAsBoolean() && current.isAlive()
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    // Its counts right before the kill, so the run's totals hold what it did up to the kill and
    // the replays its successor makes show (RunResult#eventsReRead, #rowsIgnoredByKey).
    IngestStatus last = current.currentStatus();
    Duration cpu = current.cpuTime();
    current.kill();
    kills++;
    cpuBefore = cpuBefore.plus(cpu);
    before = before.plus(last);
    reportsBefore += current.statusLines();
    current = new IngestProcess(launch.args(), launch.logFile());
    awaitReady(readyTimeout);
  }

  @Override
  public void close() throws InterruptedException {
    current.close();
  }
}
