package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.bench.RateStep;
import io.streamlab.bench.Rates;
import io.streamlab.bench.RunResult;
import io.streamlab.bench.Sample;
import io.streamlab.bench.Verification;
import io.streamlab.bench.WriteFigures;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.Stage;
import io.streamlab.pipeline.write.WriteStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * results.json ({@link Results}): every figure of a run, its full configuration, the machine, and
 * its time series. It is the one source the HTML report and {@code streamlab compare} are drawn from.
 */
public final class ResultsJson {
  static final ObjectMapper MAPPER = ReportFiles.JSON;

  private ResultsJson() {}

  public static Path write(RunResult r, Path runDir) throws IOException {
    Path file = runDir.resolve("results.json");
    ReportFiles.writeJson(file, tree(r, runDir));
    return file;
  }

  public static JsonNode read(Path runDir) throws IOException {
    Path file = runDir.resolve("results.json");
    if (!file.toFile().isFile()) throw new IllegalArgumentException("no results.json in " + runDir);
    return MAPPER.readTree(file.toFile());
  }

  static Results tree(RunResult r, Path runDir) {
    Verification v = r.table();
    return new Results(
        new Results.Run(r.info().name(), r.info().description(), r.info().mode().name().toLowerCase(),
            r.info().startedAt(), runDir.toString()),
        new TreeMap<>(r.info().configuration()), MachineFacts.collect(),
        new Results.Generated(r.generator().sent(), r.generator().acked(), r.generator().errors(), r.generator().bytes()),
        new Results.Table(v.expected(), v.tableRows(), v.measuredRows(), v.failed(), v.failedByStage(), v.lost(),
            v.duplicated(), v.unexpected(), v.duplicatedInTable(), r.eventsReRead(), r.rowsIgnoredByKey()),
        new Results.VerdictFigures(r.promise().label(), r.verdict().word(), r.exitCode(), r.verdict().reason()),
        new Results.Ingestion(r.eventsPerSecond(), r.megabytesPerSecond(), r.ingestBytes(), r.ingestSeconds(),
            r.windowSeconds(), r.cpuSeconds(), r.megabytesPerSecondPerCore(), r.heapPeakBytes(), r.machineCores(),
            r.steps().isEmpty() ? null : r.maxSustainedRate(), r.ingestKills(), r.heldRate() > 0 ? r.heldRate() : null,
            Double.isNaN(r.allocatedBytesPerEvent()) ? null : Math.rint(r.allocatedBytesPerEvent()),
            r.cpuEndMicros() > 0 ? List.of(r.windowStartMicros(), r.cpuEndMicros()) : null),
        new Results.Shuffle(r.ingestBytes(), r.shuffleBytes(),
            r.ingestBytes() > 0 ? (double) r.shuffleBytes() / r.ingestBytes() : 0),
        new Results.Latency(r.latencyMillis(50), r.latencyMillis(90), r.latencyMillis(99), r.latencyMillis(99.9),
            r.latencyMillis(100), r.latencyMicros().getTotalCount()),
        r.sources().asMap(), WriteFigures.of(r), r.storeServer(), stages(r),
        new Results.Reference("Scaling a streaming workload on Apache Beam, 1 million events per second",
            RunResult.STUDY_MB_PER_SEC_PER_CORE, 6.0, RunResult.STUDY_P99_MILLIS),
        r.steps().isEmpty() ? null : r.steps().stream().map(ResultsJson::step).toList(),
        series(r.series(), r.latencyIntervals()));
  }

  private static List<Results.StageFigures> stages(RunResult r) {
    List<Results.StageFigures> list = new ArrayList<>();
    StageCounts read = r.stages().getOrDefault(Stage.READ, StageCounts.ZERO);
    r.stages().forEach((stage, c) -> list.add(new Results.StageFigures(stage.label(), c.elements(), c.bytes(),
        c.busyNanos() / 1e9, Rates.perSecond(c.elements(), r.ingestSeconds()),
        Rates.perSecond(c.bytes() / 1e6, r.ingestSeconds()), c.meanElementBytes(), c.meanMillisSinceSend(),
        c.meanMillisSince(read))));
    return list;
  }

  private static Results.Step step(RateStep s) {
    return new Results.Step(s.targetRate(), s.generatedRate(), s.ingestedRate(), s.backlogGrowth(), s.p99Millis(),
        Double.isNaN(s.lateIngestedShare()) ? null : s.lateIngestedShare(), s.megabytesPerSecondPerCore(), s.sustained());
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
      if (s.write().containsKey(WriteStats.AUTO_SHARDS)) m.put("autoShards", s.write().get(WriteStats.AUTO_SHARDS));
      for (Stage stage : Stage.values()) {
        StageCounts now = s.stages().get(stage);
        if (now == null) continue;
        StageCounts before = prev == null ? StageCounts.ZERO : prev.stages().getOrDefault(stage, StageCounts.ZERO);
        m.put(stage.label() + "PerSec", round(Rates.perSecond(now.elements() - before.elements(), dt)));
      }
      // the sample's wall clock: t counts from the ingestion's start, not the run's (last, so that
      // timeseries.csv's columns before it keep their places)
      m.put("epochMillis", s.epochMillis());
      rows.add(m);
      prev = s;
    }
    return rows;
  }

  private static double round(double v) {
    return ReportFiles.round(v, 3);
  }
}
