package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The ingestion child process, which {@code --chaos} may kill -9 and restart: counters and CPU
 * time are the totals over every process so far, so a run's figures include the work a killed
 * process did and the work its successor repeated.
 */
final class RestartableIngest implements AutoCloseable {
  private final List<String> args;
  private final Path logFile;
  private IngestProcess current;
  private IngestStatus before = IngestStatus.NONE;
  private Duration cpuBefore = Duration.ZERO;
  private int kills;

  RestartableIngest(List<String> args, Path logFile) throws IOException {
    this.args = args;
    this.logFile = logFile;
    current = new IngestProcess(args, logFile);
  }

  IngestStatus status() {
    return before.plus(current.status());
  }

  Duration cpuTime() {
    return cpuBefore.plus(current.cpuTime());
  }

  boolean isAlive() {
    return current.isAlive();
  }

  int kills() {
    return kills;
  }

  void awaitReady(Duration timeout) throws InterruptedException {
    current.awaitReady(timeout, logFile);
  }

  long markLatencyInterval() throws IOException, InterruptedException {
    return current.markLatencyInterval();
  }

  /**
   * kill -9, then start a new ingestion process and wait until it runs. The process is killed
   * only once it has written rows (or after {@code readyTimeout}): on a loaded machine a restarted
   * process can take longer to start than the gap to the next kill, and killing it before it did
   * anything would test nothing.
   */
  void killAndRestart(Duration readyTimeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + readyTimeout.toNanos();
    while (current.status().rowsWritten() == 0 && current.isAlive() && System.nanoTime() < deadline) {
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
    current = new IngestProcess(args, logFile);
    awaitReady(readyTimeout);
  }

  @Override
  public void close() throws InterruptedException {
    current.close();
  }
}
