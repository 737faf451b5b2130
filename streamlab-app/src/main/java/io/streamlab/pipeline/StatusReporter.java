package io.streamlab.pipeline;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Prints an {@link IngestStatus} line at a fixed interval and appends each interval's latency
 * histogram to an HdrHistogram log, so the latency of a run survives even if the ingestion
 * process is killed (at most one interval is lost).
 */
public final class StatusReporter implements AutoCloseable {
  private final PrintStream out;
  private final long intervalMillis;
  private final HistogramLogWriter latencyLog;
  private final Thread thread;
  private final java.util.function.Supplier<IngestStatus> status;
  private volatile boolean running = true;

  /** Reports this JVM's IngestMetrics (the pipeline runs in this process). */
  public StatusReporter(PrintStream out, long intervalMillis, Path latencyLogFile) throws IOException {
    this(out, intervalMillis, latencyLogFile, null);
  }

  /** @param status where the figures come from (null: this JVM's IngestMetrics) */
  public StatusReporter(PrintStream out, long intervalMillis, Path latencyLogFile,
      java.util.function.Supplier<IngestStatus> status) throws IOException {
    this.out = out;
    this.status = status;
    this.intervalMillis = intervalMillis;
    if (latencyLogFile != null) {
      latencyLog = new HistogramLogWriter(new PrintStream(new FileOutputStream(latencyLogFile.toFile(), true), true));
      latencyLog.outputLogFormatVersion();
      latencyLog.outputLegend();
    } else {
      latencyLog = null;
    }
    thread = new Thread(this::loop, "streamlab-status");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(intervalMillis);
      } catch (InterruptedException e) {
        return;
      }
      report();
    }
  }

  /** Prints one status line now (also called once more at the end of a run). */
  public synchronized void report() {
    Histogram interval = IngestMetrics.get().intervalLatency();
    if (latencyLog != null && interval.getTotalCount() > 0) {
      latencyLog.outputIntervalHistogram(interval);
    }
    long p99 = IngestMetrics.get().cumulativeLatency().getValueAtPercentile(99);
    out.println((status != null ? status.get() : IngestStatus.current(p99)).format());
    out.flush();
  }

  /**
   * Ends the current latency interval now and starts "p99 so far" afresh, so the status lines
   * of a measurement window do not carry the warm-up's latencies.
   */
  public synchronized void mark() {
    report();
    IngestMetrics.get().resetCumulativeLatency();
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    report();
  }
}
