package io.streamlab.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.streamlab.generator.GeneratorStats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The figures of one run, derived from the generator's counts, the verified table, the ingestion
 * process's CPU time and its latency log.
 *
 * @param ingestBytes payload bytes the pipeline read in the measurement window
 * @param ingestCpu CPU time of the ingestion process over the measurement window
 * @param windowSeconds measured generation start to end of drain
 * @param latencyMicros end-to-end latency, intended send time to append returned
 * @param shuffleBytes bytes the write stage's shuffle serialized in the measurement window
 * @param ingestKills times the ingestion was killed (kill -9) and restarted (--chaos)
 */
public record RunResult(GeneratorStats generator, Verification table, long ingestBytes,
    Duration ingestCpu, double windowSeconds, Histogram latencyMicros, int machineCores, long shuffleBytes,
    int ingestKills) {

  /** Seconds from the first to the last measured row written: the span ingestion was busy. */
  public double ingestSeconds() {
    double span = (table.lastWriteMicros() - table.firstWriteMicros()) / 1e6;
    return span > 0 ? span : windowSeconds;
  }

  public double eventsPerSecond() {
    return table.measuredRows() / ingestSeconds();
  }

  public double megabytesPerSecond() {
    return ingestBytes / 1e6 / ingestSeconds();
  }

  public double cpuSeconds() {
    return ingestCpu.toNanos() / 1e9;
  }

  /** Payload MB per CPU-second of the ingestion process: the study's "MB/s per core". */
  public double megabytesPerSecondPerCore() {
    return cpuSeconds() > 0 ? ingestBytes / 1e6 / cpuSeconds() : 0;
  }

  public double latencyMillis(double percentile) {
    return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getValueAtPercentile(percentile) / 1e3;
  }

  public int exitCode() {
    return table.lost() > 0 ? 1 : 0;
  }

  public String summaryLine() {
    return String.format(
        "SUMMARY generated=%d ingested=%d failed=%d lost=%d duplicated=%d measured-events/s=%.0f MB/s=%.1f "
            + "ingest-cpu-s=%.1f MB/s-per-ingest-core=%.1f read-MB=%.1f shuffled-MB=%.1f ingest-kills=%d "
            + "p50=%.0fms p90=%.0fms p99=%.0fms max=%.0fms",
        table.expected(), table.rows() - table.failed(), table.failed(), table.lost(), table.duplicated(),
        eventsPerSecond(), megabytesPerSecond(), cpuSeconds(), megabytesPerSecondPerCore(),
        ingestBytes / 1e6, shuffleBytes / 1e6, ingestKills, latencyMillis(50), latencyMillis(90), latencyMillis(99), latencyMillis(100));
  }

  public void print(PrintStream out) {
    out.println();
    out.println("==== streamlab run summary ====");
    out.printf("events generated     %,d in all (warm-up included); measured window: %,d sent, %,d acknowledged, "
        + "%,d send errors%s%n", table.expected(), generator.sent(), generator.acked(), generator.errors(),
        generator.firstError() == null ? "" : " (first: " + generator.firstError() + ")");
    out.printf("rows in table        %,d  (+ %,d dead-lettered %s)%n", table.rows() - table.failed(),
        table.failed(), table.failedByStage());
    out.printf("verification         lost %,d | duplicated %,d | unexpected %,d%s%n", table.lost(),
        table.duplicated(), table.unexpected(), table.lost() == 0 ? "  OK" : "  ROWS LOST");
    out.printf("ingestion            %,.0f events/s | %.1f MB/s over %.1f s of writing (measurement window)%n",
        eventsPerSecond(), megabytesPerSecond(), ingestSeconds());
    out.printf("ingestion CPU        %.1f CPU-s -> %.1f MB/s per ingestion core (study: 6.4 at-least-once); "
        + "machine: %d cores%n", cpuSeconds(), megabytesPerSecondPerCore(), machineCores);
    out.printf("shuffle              %,.1f MB shuffled for %,.1f MB read from the broker (%.2fx; study: 25 TB for 7 TB "
        + "with exactly-once)%n", shuffleBytes / 1e6, ingestBytes / 1e6, ingestBytes > 0 ? (double) shuffleBytes / ingestBytes : 0);
    if (ingestKills > 0) {
      out.printf("chaos                ingestion killed (kill -9) and restarted %d times%n", ingestKills);
    }
    out.printf("end-to-end latency   p50 %.0f ms | p90 %.0f ms | p99 %.0f ms | p99.9 %.0f ms | max %.0f ms "
        + "(from intended send time; study: p99 < 300 ms)%n", latencyMillis(50), latencyMillis(90),
        latencyMillis(99), latencyMillis(99.9), latencyMillis(100));
    out.println(summaryLine());
  }

  public void save(Path runDir) throws IOException {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("generated", Map.of("sent", generator.sent(), "acked", generator.acked(), "errors", generator.errors(),
        "payloadBytes", generator.bytes()));
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("expected", table.expected());
    t.put("rows", table.rows() - table.failed());
    t.put("failedByStage", table.failedByStage());
    t.put("lost", table.lost());
    t.put("duplicated", table.duplicated());
    t.put("unexpected", table.unexpected());
    r.put("table", t);
    Map<String, Object> i = new LinkedHashMap<>();
    i.put("eventsPerSec", eventsPerSecond());
    i.put("megabytesPerSec", megabytesPerSecond());
    i.put("payloadBytes", ingestBytes);
    i.put("writingSeconds", ingestSeconds());
    i.put("windowSeconds", windowSeconds);
    i.put("cpuSeconds", cpuSeconds());
    i.put("megabytesPerSecPerIngestCore", megabytesPerSecondPerCore());
    i.put("machineCores", machineCores);
    i.put("shuffleBytes", shuffleBytes);
    i.put("ingestKills", ingestKills);
    r.put("ingestion", i);
    Map<String, Object> l = new LinkedHashMap<>();
    for (double p : new double[] {50, 90, 99, 99.9, 100}) l.put(p == 100 ? "max" : "p" + p, latencyMillis(p));
    l.put("count", latencyMicros.getTotalCount());
    r.put("latencyMillis", l);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(runDir.resolve("results.json").toFile(), r);
    Files.writeString(runDir.resolve("summary.txt"), summaryLine() + System.lineSeparator());
  }
}
