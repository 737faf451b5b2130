package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import io.streamlab.process.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code streamlab ingest} running as a child process: a process of its own so its CPU time is
 * the pipeline's alone (broker and generator excluded, as the study excluded BigQuery), and so it
 * can be killed and restarted. Its status lines are parsed; everything else goes to a log file.
 * Closing its standard input asks it to stop.
 */
final class IngestProcess implements AutoCloseable {
  private final Process process;
  private final Thread pump;
  private volatile IngestStatus status = IngestStatus.NONE;
  private volatile long statusLines;

  IngestProcess(List<String> ingestArgs, Path logFile) throws IOException {
    process = JavaProcess.builder("io.streamlab.cli.Main")
        .jvmOptions(jvmOptions(logFile))
        .args(ingestArgs)
        .startWithPipes();
    // appended: a restarted ingestion (--chaos) logs after the one it replaces
    PrintWriter log = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND), true);
    pump = new Thread(() -> pump(log), "ingest-output");
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * -Xmx4g and the parallel collector, plus whatever STREAMLAB_INGEST_JAVA_OPTS and the system
   * property {@code streamlab.ingestJavaOpts} (for one test's runs) add (e.g. a profiler, more heap;
   * naming another collector replaces the parallel one). Why parallel: the ingestion allocates
   * ~3 KB of short-lived objects per event and G1's barriers and concurrent work cost more CPU than
   * its pauses save here (drain, 1.5 M events: 34 -> 58 MB/s per core). Why C2 only
   * (-XX:-TieredCompilation, unless the extra options name a tiered setting): with tiered
   * compilation the JIT threads were a fifth of a 2 M-event drain's CPU, C1 compiling everything
   * first and C2 compiling it again; C2 alone, from longer interpreter profiles, compiled less and
   * produced faster code (events per CPU-second of the drain: 110-117 k -> 131-133 k, same hour).
   * The price is a slower first few seconds after a start, before the warm-up window ends.
   * Why the Kafka client's methods at a tenth of C2's thresholds (a CompileCommand, unless the extra
   * options name a compile threshold or a tiered setting): C2 alone compiles a method after 10,000
   * calls, and the consumer's code that runs once per poll (its network client, fetch bookkeeping)
   * got there only well into a drain's measurement window, interpreted until then and compiled
   * inside it: a sixth of the reading thread's samples had an interpreted top frame, and C2 took
   * 12-14 % of the window. With the Kafka client compiled sooner, C2's share of the window fell to
   * 8-9 %; the same scaling for every method compiled more of everything else in the window instead
   * (docs/perf-notes.md, "2026-11-29 day").
   * Each process logs its collections and safepoints beside {@code logFile} (ingest-gc-PID.log),
   * so that a second in which the pipeline stood still can be told from a pause of the JVM's.
   */
  private static List<String> jvmOptions(Path logFile) {
    String gcLog = logFile.resolveSibling("ingest-gc-%p.log").toAbsolutePath().toString();
    List<String> opts = new java.util.ArrayList<>(List.of("-Xmx4g", "-Xlog:gc,safepoint:file=\"" + gcLog + "\":uptime,time"));
    String extra = (java.util.Objects.requireNonNullElse(System.getenv("STREAMLAB_INGEST_JAVA_OPTS"), "") + " "
        + System.getProperty("streamlab.ingestJavaOpts", "")).trim();
    if (!extra.matches(".*-XX:\\+Use\\w*GC.*")) opts.add("-XX:+UseParallelGC");
    if (!extra.contains("Tiered")) {
      opts.add("-XX:-TieredCompilation");
      if (!extra.contains("CompileThreshold")) {
        opts.addAll(List.of("-XX:CompileCommand=quiet", "-XX:CompileCommand=CompileThresholdScaling,org.apache.kafka.*::*,0.1"));
      }
    }
    if (!extra.isEmpty()) opts.addAll(List.of(extra.split("\\s+")));
    return opts;
  }

  private void pump(PrintWriter log) {
    try (BufferedReader r = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        IngestStatus s = IngestStatus.parse(line);
        if (s != null) {
          status = s;
          statusLines++;
        }
        else log.println(line);
      }
    } catch (IOException e) {
      log.println("[streamlab] ingest output ended: " + e);
    } finally {
      log.close();
    }
  }

  IngestStatus status() {
    return status;
  }

  /** Status lines read so far. */
  long statusLines() {
    return statusLines;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** CPU time the ingestion process has used so far (user + system, all threads). */
  Duration cpuTime() {
    return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** The child's own one-line error ("streamlab: ..."), quoted, or "" if it printed none. */
  static String childError(Path logFile) {
    try (var lines = java.nio.file.Files.lines(logFile)) {
      return lines.filter(l -> l.startsWith("streamlab: ")).reduce((a, b) -> b)
          .map(l -> ": " + l.substring("streamlab: ".length())).orElse("");
    } catch (Exception unreadable) {
      return "";
    }
  }

  /** Waits until the pipeline is running (a writer opened its table). */
  void awaitReady(Duration timeout, Path logFile) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!status.ready()) {
      if (!process.isAlive()) {
        throw new IllegalStateException("ingestion exited with code " + process.exitValue()
            + " before it was ready" + childError(logFile) + "; see " + logFile);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("ingestion not ready after " + timeout.toSeconds() + " s; see " + logFile);
      }
      Thread.sleep(100);
    }
  }

  /**
   * Ends the ingestion's current latency interval and waits for it to be logged: latency
   * intervals starting after the returned time hold only events sent after it.
   *
   * @return epoch millis before which the marked interval started
   */
  long markLatencyInterval() throws IOException, InterruptedException {
    long before = statusLines;
    long now = System.currentTimeMillis();
    IngestProtocol.sendMark(process.getOutputStream());
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (statusLines == before && System.nanoTime() < deadline && process.isAlive()) Thread.sleep(10);
    return now;
  }

  /**
   * The counts as of now, not as of the last periodic status line (up to a status interval old):
   * asks for a status line and waits for it. It also ends a latency interval, which only splits
   * the latency log finer.
   */
  IngestStatus currentStatus() throws IOException, InterruptedException {
    markLatencyInterval();
    return status;
  }

  /** kill -9: no shutdown hook, no flush, no goodbye (Process.destroyForcibly is SIGKILL on Unix). */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    pump.join(5_000);
  }

  /** Asks for a clean stop (stdin closed), then kills it if it does not exit in time. */
  @Override
  public void close() throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // already gone
    }
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    pump.join(5_000);
  }
}
