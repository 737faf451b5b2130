package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.streamlab.bench.RateStep;
import io.streamlab.bench.Rates;
import io.streamlab.bench.RunResult;
import io.streamlab.bench.Sample;
import io.streamlab.bench.Verification;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.Stage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * results.json: every figure of a run, its full configuration, the machine, and its time series.
 * It is the one source the HTML report and {@code streamlab compare} are drawn from.
 */
public final class ResultsJson {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultsJson() {}

  public static Path write(RunResult r, Path runDir) throws IOException {
    Path file = runDir.resolve("results.json");
    MAPPER.writeValue(file.toFile(), tree(r, runDir));
    return file;
  }

  public static JsonNode read(Path runDir) throws IOException {
    Path file = runDir.resolve("results.json");
    if (!file.toFile().isFile()) throw new IllegalArgumentException("no results.json in " + runDir);
    return MAPPER.readTree(file.toFile());
  }

  static Map<String, Object> tree(RunResult r, Path runDir) {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("name", r.info().name());
    run.put("description", r.info().description());
    run.put("mode", r.info().mode().name().toLowerCase());
    run.put("startedAt", r.info().startedAt());
    run.put("directory", runDir.toString());
    root.put("run", run);
    root.put("configuration", new TreeMap<>(r.info().configuration()));
    root.put("machine", MachineFacts.collect());
    root.put("generated", Map.of("sent", r.generator().sent(), "acked", r.generator().acked(),
        "errors", r.generator().errors(), "payloadBytes", r.generator().bytes()));
    Verification v = r.table();
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("expected", v.expected());
    t.put("rows", v.tableRows());
    t.put("measuredRows", v.measuredRows());
    t.put("failed", v.failed());
    t.put("failedByStage", v.failedByStage());
    t.put("lost", v.lost());
    t.put("duplicated", v.duplicated());
    t.put("unexpected", v.unexpected());
    t.put("duplicatedInTable", v.duplicatedInTable());
    t.put("eventsReRead", r.eventsReRead());
    t.put("rowsIgnoredByKey", r.rowsIgnoredByKey());
    root.put("table", t);
    root.put("verdict", Map.of("promise", r.promise().label(), "verdict", r.verdict().word(),
        "exitCode", r.exitCode(), "reason", r.verdict().reason()));
    Map<String, Object> i = new LinkedHashMap<>();
    i.put("eventsPerSec", r.eventsPerSecond());
    i.put("megabytesPerSec", r.megabytesPerSecond());
    i.put("payloadBytes", r.ingestBytes());
    i.put("writingSeconds", r.ingestSeconds());
    i.put("windowSeconds", r.windowSeconds());
    i.put("cpuSeconds", r.cpuSeconds());
    i.put("megabytesPerSecPerIngestCore", r.megabytesPerSecondPerCore());
    i.put("heapPeakBytes", r.heapPeakBytes());
    i.put("machineCores", r.machineCores());
    if (!r.steps().isEmpty()) i.put("maxSustainedEventsPerSec", r.maxSustainedRate());
    i.put("ingestKills", r.ingestKills());
    root.put("ingestion", i);
    root.put("shuffle", Map.of("bytesRead", r.ingestBytes(), "bytesShuffled", r.shuffleBytes(),
        "shuffledPerRead", r.ingestBytes() > 0 ? (double) r.shuffleBytes() / r.ingestBytes() : 0));
    Map<String, Object> l = new LinkedHashMap<>();
    l.put("p50", r.latencyMillis(50));
    l.put("p90", r.latencyMillis(90));
    l.put("p99", r.latencyMillis(99));
    l.put("p99.9", r.latencyMillis(99.9));
    l.put("max", r.latencyMillis(100));
    l.put("count", r.latencyMicros().getTotalCount());
    root.put("latencyMillis", l);
    root.put("sources", r.sources().asMap());
    root.put("write", io.streamlab.bench.WriteFigures.of(r));
    root.put("stages", stages(r));
    root.put("reference", Map.of("study", "Scaling a streaming workload on Apache Beam, 1 million events per second",
        "megabytesPerSecPerCoreAtLeastOnce", RunResult.STUDY_MB_PER_SEC_PER_CORE,
        "megabytesPerSecPerCoreExactlyOnce", 6.0, "p99Millis", RunResult.STUDY_P99_MILLIS));
    if (!r.steps().isEmpty()) root.put("steps", steps(r.steps()));
    root.put("series", series(r.series(), r.latencyIntervals()));
    return root;
  }

  private static List<Map<String, Object>> stages(RunResult r) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Map.Entry<Stage, StageCounts> e : r.stages().entrySet()) {
      StageCounts c = e.getValue();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("stage", e.getKey().label());
      m.put("elements", c.elements());
      m.put("bytes", c.bytes());
      m.put("wallSeconds", c.busyNanos() / 1e9);
      m.put("eventsPerSec", Rates.perSecond(c.elements(), r.ingestSeconds()));
      m.put("megabytesPerSec", Rates.perSecond(c.bytes() / 1e6, r.ingestSeconds()));
      m.put("meanElementBytes", c.meanElementBytes());
      list.add(m);
    }
    return list;
  }

  private static List<Map<String, Object>> steps(List<RateStep> steps) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (RateStep s : steps) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("targetEventsPerSec", s.targetRate());
      m.put("generatedEventsPerSec", s.generatedRate());
      m.put("ingestedEventsPerSec", s.ingestedRate());
      m.put("backlogGrowth", s.backlogGrowth());
      m.put("p99Millis", s.p99Millis());
      m.put("megabytesPerSecPerIngestCore", s.megabytesPerSecondPerCore());
      m.put("sustained", s.sustained());
      list.add(m);
    }
    return list;
  }

  /**
   * One row a second: totals, rates since the previous sample, backlog, the latency of the
   * interval logged nearest that second, CPU, heap, and per-stage rates.
   */
  static List<Map<String, Object>> series(List<Sample> samples, List<LatencyLog.Interval> latency) {
    List<Map<String, Object>> rows = new ArrayList<>();
    Sample prev = null;
    int li = 0;
    for (Sample s : samples) {
      double dt = prev == null ? s.seconds() : s.seconds() - prev.seconds();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("t", round(s.seconds()));
      m.put("phase", s.phase());
      m.put("generated", s.generated());
      m.put("ingested", s.ingested());
      m.put("generatedPerSec", round(Rates.perSecond(s.generated() - (prev == null ? 0 : prev.generated()), dt)));
      m.put("ingestedPerSec", round(Rates.perSecond(s.ingested() - (prev == null ? 0 : prev.ingested()), dt)));
      m.put("readMBPerSec", round(Rates.perSecond((s.bytesRead() - (prev == null ? 0 : prev.bytesRead())) / 1e6, dt)));
      m.put("backlog", s.backlog());
      while (li < latency.size() && latency.get(li).endMillis() <= s.epochMillis()) li++;
      // the interval logged last before this sample, if it is this second's
      LatencyLog.Interval in = li > 0 && s.epochMillis() - latency.get(li - 1).endMillis() < 1_500
          ? latency.get(li - 1) : null;
      m.put("p50Millis", in == null ? null : round(Rates.percentileMillis(in.histogram(), 50)));
      m.put("p99Millis", in == null ? null : round(Rates.percentileMillis(in.histogram(), 99)));
      m.put("cpuSeconds", round(s.cpuSeconds()));
      m.put("cpuCores", round(Rates.perSecond(s.cpuSeconds() - (prev == null ? 0 : prev.cpuSeconds()), dt)));
      m.put("heapPeakMB", s.heapPeakBytes() >> 20);
      if (s.write().containsKey("activeKeys")) m.put("activeKeys", s.write().get("activeKeys"));
      for (Stage stage : Stage.values()) {
        StageCounts now = s.stages().get(stage);
        if (now == null) continue;
        StageCounts before = prev == null ? StageCounts.ZERO : prev.stages().getOrDefault(stage, StageCounts.ZERO);
        m.put(stage.label() + "PerSec", round(Rates.perSecond(now.elements() - before.elements(), dt)));
      }
      rows.add(m);
      prev = s;
    }
    return rows;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
