package io.streamlab.bench;

import io.streamlab.generator.GeneratorStats;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.pipeline.Stage;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The figures of one run, derived from the generator's counts, the verified table, the ingestion
 * process's CPU time, status lines and latency log.
 *
 * @param generator the measured phase(s)' generator counts
 * @param ingestedEvents rows written or dead-lettered in the measurement window
 * @param ingestBytes payload bytes of the rows ingested in the measurement window
 * @param windowStartMicros when the measurement window started (epoch micros)
 * @param ingestCpu CPU time of the ingestion process over the measurement window
 * @param windowSeconds measured generation start to end of drain
 * @param latencyMicros end-to-end latency, intended send time to append returned (window only)
 * @param stages what each pipeline stage did in the measurement window
 * @param heapPeakBytes the ingestion JVM's peak heap use
 * @param series one sample a second over the whole run (warm-up included, marked by phase)
 * @param latencyIntervals the latency log's intervals over the whole run
 * @param steps the max-rate search's steps (empty in other modes)
 * @param shuffleBytes bytes the write stage's shuffle serialized in the measurement window
 * @param ingestKills times the ingestion was killed (kill -9) and restarted (--chaos)
 * @param sources where CPU, bytes, shuffle and latency were measured (embedded or cluster)
 * @param promise what the write method promised: the verdict judges the table against it
 * @param totals the ingestion's counters over the whole run, every killed process included (each
 *     as of a status line it printed on request right before the kill: what it did in the last
 *     milliseconds is missing, so figures derived from it are lower bounds)
 * @param heldRate max mode: the rate held after the search, whose window the figures are of (0:
 *     none; the figures are then of all the steps)
 * @param allocatedBytes heap bytes the ingestion process allocated over the measurement window (0:
 *     unknown, e.g. on a cluster; a lower bound where the ingestion was killed, as {@link #totals})
 * @param cpuEndMicros when the window's CPU time was last read (epoch micros; 0: unknown): with
 *     {@link #windowStartMicros} the interval {@link #ingestCpu} was measured over, by which a
 *     per-thread sampler's figures can be cut to the same interval (scripts/thread-cpu --window)
 */
public record RunResult(RunInfo info, GeneratorStats generator, Verification table, long ingestedEvents,
    long ingestBytes, Duration ingestCpu, long windowStartMicros, double windowSeconds, Histogram latencyMicros,
    int machineCores,
    Map<Stage, StageCounts> stages, long heapPeakBytes, List<Sample> series,
    List<LatencyLog.Interval> latencyIntervals, List<RateStep> steps, long shuffleBytes, int ingestKills,
    FigureSources sources, Verdict.Promise promise, IngestStatus totals, double heldRate, long allocatedBytes,
    StoreServerFigures storeServer, long cpuEndMicros) {

  /** A result whose promise is read from the run's configuration, without ingestion totals. */
  public RunResult(RunInfo info, GeneratorStats generator, Verification table, long ingestedEvents,
      long ingestBytes, Duration ingestCpu, long windowStartMicros, double windowSeconds, Histogram latencyMicros,
      int machineCores, Map<Stage, StageCounts> stages, long heapPeakBytes, List<Sample> series,
      List<LatencyLog.Interval> latencyIntervals, List<RateStep> steps, long shuffleBytes, int ingestKills,
      FigureSources sources) {
    this(info, generator, table, ingestedEvents, ingestBytes, ingestCpu, windowStartMicros, windowSeconds,
        latencyMicros, machineCores, stages, heapPeakBytes, series, latencyIntervals, steps, shuffleBytes, ingestKills,
        sources, Verdict.Promise.of(info), IngestStatus.NONE, 0, 0, null, 0);
  }

  /** The original study's figures, printed beside ours. */
  public static final double STUDY_MB_PER_SEC_PER_CORE = 6.4;
  public static final double STUDY_P99_MILLIS = 300;

  /**
   * Seconds from the start of the measurement window to the last measured row written: the span
   * the window's rows and bytes are divided by (the drain's tail included, its idle end not).
   */
  public double ingestSeconds() {
    double span = (table.lastWriteMicros() - windowStartMicros) / 1e6;
    return span > 0 ? span : windowSeconds;
  }

  public double eventsPerSecond() {
    return Rates.perSecond(ingestedEvents, ingestSeconds());
  }

  public double megabytesPerSecond() {
    return Rates.perSecond(ingestBytes / 1e6, ingestSeconds());
  }

  public double cpuSeconds() {
    return ingestCpu.toNanos() / 1e9;
  }

  /** Payload MB per CPU-second of the ingestion process: the study's "MB/s per core". */
  public double megabytesPerSecondPerCore() {
    return Rates.perCore(ingestBytes, cpuSeconds());
  }

  /**
   * Heap bytes allocated per event in the measurement window, NaN where unknown. The per-event work
   * that CPU time shows only through the machine's speed of the moment (see {@link IngestStatus#allocatedBytes}).
   */
  public double allocatedBytesPerEvent() {
    return allocatedBytes > 0 && ingestedEvents > 0 ? (double) allocatedBytes / ingestedEvents : Double.NaN;
  }

  public double latencyMillis(double percentile) {
    return Rates.percentileMillis(latencyMicros, percentile);
  }

  /** The highest rate the max-rate search sustained, 0 if none (or not a max-rate run). */
  public double maxSustainedRate() {
    return steps.stream().filter(RateStep::sustained).mapToDouble(RateStep::targetRate).max().orElse(0);
  }

  /** Whether the table kept the write method's promise. */
  public Verdict verdict() {
    return Verdict.of(promise, table);
  }

  /** The process's exit code: {@link Verdict#exitCode()}. */
  public int exitCode() {
    return verdict().exitCode();
  }

  /**
   * Events read more than once over the whole run (by a restarted ingestion, from its last
   * committed offsets): the replays a kill caused. A lower bound (see {@link #totals}).
   */
  public long eventsReRead() {
    return Math.max(0, totals.eventsRead() - table.expected());
  }

  /**
   * Rows appended more often than the tables hold them: on a keyed (exactly-once) table, the
   * replayed rows the identity key ignored. A lower bound (see {@link #totals}); 0 when not keyed.
   */
  public long rowsIgnoredByKey() {
    return promise == Verdict.Promise.EXACTLY_ONCE ? Math.max(0, totals.rowsWritten() - table.rows()) : 0;
  }

  public String summaryLine() {
    return String.format(
        "SUMMARY generated=%d ingested=%d failed=%d%s lost=%d duplicated=%d measured-events/s=%.0f MB/s=%.1f "
            + "ingest-cpu-s=%.1f MB/s-per-ingest-core=%.1f read-MB=%.1f shuffled-MB=%.1f ingest-kills=%d "
            + "re-read=%d ignored-by-key=%d p50=%.0fms p90=%.0fms p99=%.0fms max=%.0fms "
            + "duplicated-in-table=%d unexpected=%d promise=%s verdict=%s exit=%d",
        table.expected(), table.tableRows(), table.failed(), failedPerStage(), table.lost(), table.duplicated(),
        eventsPerSecond(), megabytesPerSecond(), cpuSeconds(), megabytesPerSecondPerCore(),
        ingestBytes / 1e6, shuffleBytes / 1e6, ingestKills, eventsReRead(), rowsIgnoredByKey(),
        latencyMillis(50), latencyMillis(90), latencyMillis(99), latencyMillis(100),
        table.duplicatedInTable(), table.unexpected(), promise.label(), verdict().word(), exitCode());
  }

  /** " failedByStage=decode:2,udf:1", or "" when nothing failed: the dead letters per stage. */
  private String failedPerStage() {
    if (table.failedByStage().isEmpty()) return "";
    return " failedByStage=" + table.failedByStage().entrySet().stream()
        .map(e -> e.getKey() + ":" + e.getValue()).collect(java.util.stream.Collectors.joining(","));
  }

  public void print(PrintStream out) {
    out.println();
    out.println("==== streamlab run summary: " + info.name() + " (" + info.mode().name().toLowerCase() + ") ====");
    out.printf("events generated     %,d in all (warm-up included); measured: %,d sent, %,d acknowledged, "
        + "%,d send errors%s%n", table.expected(), generator.sent(), generator.acked(), generator.errors(),
        generator.firstError() == null ? "" : " (first: " + generator.firstError() + ")");
    out.printf("rows in table        %,d  (+ %,d dead-lettered %s)%n", table.tableRows(),
        table.failed(), table.failedByStage());
    out.printf("verification         lost %,d | duplicated in the table %,d | unexpected %,d%n", table.lost(),
        table.duplicatedInTable(), table.unexpected());
    out.printf("dead letters         %,d in %s (counted as delivered, not as rows)%s%n", table.failed(),
        table.failedByStage().isEmpty() ? "no stage" : table.failedByStage(), table.duplicatedDeadLetters() > 0
            ? String.format("; %,d repeated by replays (the dead-letter table is not keyed)", table.duplicatedDeadLetters())
            : "");
    if (ingestKills > 0 || eventsReRead() > 0) {
      out.printf("replays              %,d events read more than once%s%n", eventsReRead(),
          promise == Verdict.Promise.EXACTLY_ONCE
              ? String.format(", %,d rows appended again and ignored by the identity key", rowsIgnoredByKey()) : "");
    }

    out.printf("ingestion            %,.0f events/s | %.1f MB/s over %.1f s of writing (measurement window)%n",
        eventsPerSecond(), megabytesPerSecond(), ingestSeconds());
    out.printf("ingestion CPU        %.1f CPU-s -> %.1f MB/s per ingestion core (study: %.1f at-least-once); "
        + "machine: %d cores; heap peak %,d MB; allocated %s%n", cpuSeconds(), megabytesPerSecondPerCore(),
        STUDY_MB_PER_SEC_PER_CORE, machineCores, heapPeakBytes >> 20,
        Double.isNaN(allocatedBytesPerEvent()) ? "n/a" : String.format("%,.0f bytes per event", allocatedBytesPerEvent()));
    out.printf("shuffle              %,.1f MB shuffled for %,.1f MB read from the broker (%.2fx; study: 25 TB for 7 TB "
        + "with exactly-once)%n", shuffleBytes / 1e6, ingestBytes / 1e6, ingestBytes > 0 ? (double) shuffleBytes / ingestBytes : 0);
    out.println("write requests       " + WriteFigures.summary(this) + " (whole run)");
    if (storeServer != null) out.println("store server         " + storeServer.summary());
    if (ingestKills > 0) {
      out.printf("chaos                ingestion killed (kill -9) and restarted %d times%n", ingestKills);
    }
    StageCounts read = stages.getOrDefault(Stage.READ, StageCounts.ZERO);
    for (Map.Entry<Stage, StageCounts> e : stages.entrySet()) {
      StageCounts c = e.getValue();
      Double fromRead = c.meanMillisSince(read);
      out.printf("  stage %-8s     %,12d elements | %,10.0f /s | wall %7.1f s | %s | %s%n", e.getKey().label(),
          c.elements(), c.elements() / ingestSeconds(), c.busyNanos() / 1e9,
          c.bytes() > 0 ? String.format("%,.0f B/element", c.meanElementBytes()) : "size n/a",
          e.getKey() == Stage.READ && c.meanMillisSinceSend() != null
              ? String.format("%,.1f ms after send", c.meanMillisSinceSend())
              : fromRead == null ? "latency n/a" : String.format("%,.1f ms after read", fromRead));
    }
    out.printf("end-to-end latency   p50 %.0f ms | p90 %.0f ms | p99 %.0f ms | p99.9 %.0f ms | max %.0f ms "
        + "(from intended send time%s; study: p99 < %.0f ms)%n", latencyMillis(50), latencyMillis(90),
        latencyMillis(99), latencyMillis(99.9), latencyMillis(100),
        info.mode() == RunMode.DRAIN ? ", so in drain mode the age of the backlog" : "", STUDY_P99_MILLIS);
    if (!sources.equals(FigureSources.EMBEDDED)) {
      out.println("figures from         (the pipeline ran in other processes)");
      sources.asMap().forEach((figure, source) -> out.printf("  %-18s %s%n", figure, source));
    }
    if (!steps.isEmpty()) {
      out.println("max-rate search      target/s   generated/s  ingested/s  backlog+   p99 ms  kept up  MB/s/core");
      for (RateStep s : steps) {
        out.printf("                     %,9.0f  %,11.0f  %,10.0f  %,8d  %,7.0f  %7s  %9.1f  %s%n", s.targetRate(),
            s.generatedRate(), s.ingestedRate(), s.backlogGrowth(), s.p99Millis(),
            s.keptUpText(),
            s.megabytesPerSecondPerCore(), s.sustained() ? "sustained" : "not sustained");
      }
      out.println("  (kept up: events ingested per event generated over the step's second half; a step under "
          + Math.round(100 * RateStep.MIN_LATE_INGESTED_SHARE) + " % is not sustained)");
      out.printf("highest sustained    %,.0f events/s%n", maxSustainedRate());
      if (heldRate > 0) {
        out.printf("held                 %,.0f events/s (%.0f %% of it) after the search, in the same pipeline: the "
            + "window, rates and latency above are of that hold%n", heldRate, 100 * heldRate / maxSustainedRate());
      }
    }
    out.printf("verdict              %s  (exit code %d)%n", verdict().line(), exitCode());
    out.println(summaryLine());
  }
}
