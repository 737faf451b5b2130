package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code streamlab run} end to end: embedded broker, ingestion in its own process, verification, report. */
class LabRunTest {
  @TempDir Path dir;

  private JsonNode run(Path runDir, String... flags) throws Exception {
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(new StringWriter()));
    String[] args = new String[flags.length + 3];
    args[0] = "run";
    args[1] = "--runDir=" + runDir;
    args[2] = "--parallelism=2";
    System.arraycopy(flags, 0, args, 3, flags.length);
    assertEquals(0, cl.execute(args), "exit code");
    return new ObjectMapper().readTree(runDir.resolve("results.json").toFile());
  }

  @Test
  void steadyRunLosesNothingAndWritesResultsSeriesAndReport() throws Exception {
    Path runDir = dir.resolve("steady");
    JsonNode results = run(runDir, "--warmup=3s", "--duration=5s", "--ratePerSec=2000", "--progressInterval=2s");
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
    // at most 2,000/s for 3-18 s of warm-up (it lasts until the pipeline has caught up, at most
    // --warmup + 15 s here) + 5 s measured (a loaded machine may send fewer: the schedule ends on
    // time), and warm-up events are verified with the measured ones
    long generated = Long.parseLong(summary.replaceAll(".*generated=(\\d+).*\\s*", "$1"));
    long measuredAcked = results.path("generated").path("acked").asLong(-1);
    assertTrue(measuredAcked > 0 && measuredAcked <= 10_000, "acked " + measuredAcked);
    assertTrue(generated > measuredAcked && generated <= 46_000, summary);
    // the measured window holds exactly the measured phase's events, none of the warm-up's
    assertEquals(measuredAcked, results.path("table").path("measuredRows").asLong(-1), results.path("table").toString());
    assertTrue(results.path("latencyMillis").path("count").asLong() >= measuredAcked, results.path("latencyMillis").toString());
    assertEquals("2000.0", results.path("configuration").path("ratePerSec").asText());
    assertTrue(results.path("machine").path("cores").asInt(-1) > 0, results.path("machine").toString());

    // the time series: one row a second, the ingested total reaching every event
    List<String> csv = Files.readAllLines(runDir.resolve("timeseries.csv"));
    assertTrue(csv.get(0).startsWith("t,phase,generated,ingested,"), csv.get(0));
    // the warm-up runs straight into the window: no drain, no idle pipeline between them; only a
    // warm-up that did not catch up within its limit (3 s + 15 s: a fresh JVM on a loaded machine
    // can stall that long) is drained first, and then only after that limit
    List<String> phases = phases(csv);
    if (phases.contains("warm-up/drain")) {
      assertEquals(List.of("start-up", "warm-up", "warm-up/drain", "measure", "measure/drain"), phases, "phases in order");
      long warmUpSeconds = csv.stream().filter(row -> row.split(",")[1].equals("warm-up")).count();
      assertTrue(warmUpSeconds >= 17, "drained after " + warmUpSeconds + " s of warm-up, before its 18 s limit");
    } else {
      assertEquals(List.of("start-up", "warm-up", "measure", "measure/drain"), phases, "phases in order");
    }
    assertTrue(csv.size() > 8, "rows: " + csv.size());
    String lastRow = csv.get(csv.size() - 1);
    assertEquals(String.valueOf(generated), lastRow.split(",")[3], lastRow);
    String html = Files.readString(runDir.resolve("report.html"));
    assertTrue(html.contains("<polyline"), "charts drawn with data");
    assertTrue(html.contains("stage write") && html.contains("stage decode"), "per-stage throughput");

    // per-stage latency (issue 13.4): every stage from decode on knows the time from the read to its output,
    // the write's (until the row is visible) the longest; the element size after conversion is known
    java.util.Map<String, JsonNode> stages = new java.util.HashMap<>();
    results.path("stages").forEach(st -> stages.put(st.path("stage").asText(), st));
    for (String st : List.of("decode", "udf", "convert", "write")) {
      assertTrue(stages.get(st).path("fromReadMeanMillis").isNumber(), st + ": " + stages.get(st));
    }
    assertTrue(stages.get("read").path("sinceSendMeanMillis").asDouble(-1) >= 0, stages.get("read").toString());
    assertTrue(stages.get("write").path("fromReadMeanMillis").asDouble() >= stages.get("decode").path("fromReadMeanMillis")
        .asDouble(), results.path("stages").toString());
    assertTrue(stages.get("convert").path("meanElementBytes").asDouble() > 100, stages.get("convert").toString());
  }

  @Test
  void warmupDrainStartsTheWindowFromAnIdlePipeline() throws Exception {
    Path runDir = dir.resolve("warmup-drain");
    // 2 s of warm-up: samples come once a second, and a loaded machine delays one now and then
    JsonNode results = run(runDir, "--warmupDrain", "--warmup=2s", "--duration=2s", "--ratePerSec=1000");
    assertEquals(0, results.path("table").path("lost").asLong(-1), results.path("table").toString());
    assertEquals(List.of("start-up", "warm-up", "warm-up/drain", "measure", "measure/drain"),
        phases(Files.readAllLines(runDir.resolve("timeseries.csv"))), "phases in order");
  }

  @Test
  void aWarmUpThatNeverCatchesUpIsDrainedBeforeTheWindow() throws Exception {
    // as fast as possible: the backlog never stays within 1.5 s of events, so at the
    // warm-up's limit (1 s + 15 s) it is drained instead of handing its backlog to the window. The
    // window's generator starts with the window's phase: started before the window's start was taken
    // (a wait for a status line), its 1 s could pass with no sample of the series in the window.
    // 2 s: samples come once a second, and a loaded machine delays one now and then.
    Path runDir = dir.resolve("never-caught-up");
    JsonNode results = run(runDir, "--warmup=1s", "--duration=2s", "--ratePerSec=0");
    assertEquals(0, results.path("table").path("lost").asLong(-1), results.path("table").toString());
    assertEquals(List.of("start-up", "warm-up", "warm-up/drain", "measure", "measure/drain"),
        phases(Files.readAllLines(runDir.resolve("timeseries.csv"))), "phases in order");
  }

  /** The time series' phases in the order they came, each once (start-up only when it lasted a sample). */
  private static List<String> phases(List<String> csv) {
    List<String> phases = new java.util.ArrayList<>();
    for (String row : csv.subList(1, csv.size())) {
      String phase = row.split(",")[1];
      if (phases.isEmpty() || !phases.get(phases.size() - 1).equals(phase)) phases.add(phase);
    }
    if (!phases.isEmpty() && !phases.get(0).equals("start-up")) phases.add(0, "start-up");
    return phases;
  }

  @Test
  void drainModeMeasuresThePreloadedBacklogAlone() throws Exception {
    // A backlog that drains within about a second, before the run even sees the warm-up's end (its
    // status lines come once a second): the window must still hold every measured row, from the first
    // of them on. Measured from the warm-up's end as seen, it held none (0 events/s) or a part.
    JsonNode r = run(dir.resolve("drain"), "--mode=drain", "--preload=20000", "--preloadWarmup=2000");
    assertEquals("drain", r.path("run").path("mode").asText());
    assertEquals(22_000, r.path("table").path("expected").asLong());
    assertEquals(0, r.path("table").path("lost").asLong());
    assertEquals(20_000, r.path("table").path("measuredRows").asLong(), "warm-up rows are not measured");
    assertTrue(r.path("storeServer").isMissingNode(), "a DuckDB file has no server of its own: " + r.path("storeServer"));
    JsonNode ingestion = r.path("ingestion");
    assertEquals(20_000, ingestion.path("eventsPerSec").asDouble() * ingestion.path("writingSeconds").asDouble(), 1,
        "the window's rows are the measured backlog: " + ingestion);
    assertTrue(ingestion.path("payloadBytes").asLong() > 0, ingestion.toString());
    assertTrue(ingestion.path("cpuSeconds").asDouble() > 0, ingestion.toString());
    assertTrue(ingestion.path("megabytesPerSecPerIngestCore").asDouble() > 0, ingestion.toString());
  }

  /**
   * Max mode: each step of the search in results.json, then (--holdAtShare) a hold at a share of
   * the highest sustained rate in the same pipeline, whose window the run's figures are of.
   */
  @Test
  void maxModeReportsEachStepOfItsSearchAndThenHoldsAShareOfItsAnswer() throws Exception {
    JsonNode r = run(dir.resolve("max"), "--mode=max", "--warmup=2s", "--ratePerSec=1000", "--stepDuration=5s",
        "--maxSteps=2", "--maxP99=60s", "--holdAtShare=0.5", "--duration=5s");
    assertEquals(2, r.path("steps").size(), r.path("steps").toString());
    JsonNode first = r.path("steps").get(0);
    assertEquals(1000, first.path("targetEventsPerSec").asDouble());
    // a 5 s step's second half (2 s) is too short to tell a late bundle from falling behind: no share,
    // the step is judged by its generator, backlog and p99 (RateStepTest covers the share)
    assertTrue(first.path("secondHalfIngestedShare").isNull(), "second half ingested share " + first);
    assertEquals(first.path("sustained").asBoolean() ? 1500 : 500,
        r.path("steps").get(1).path("targetEventsPerSec").asDouble(), "x1.5 after a sustained step, half after not");
    double highest = r.path("ingestion").path("maxSustainedEventsPerSec").asDouble();
    assertTrue(highest >= 1000, "1,000 events/s is sustained here: " + r.path("steps"));
    assertEquals(highest / 2, r.path("ingestion").path("heldEventsPerSec").asDouble(), 1e-6, r.path("ingestion").toString());
    // the figures are the hold's: its 5 s of events, not the steps' (5 s at 1,000/s, then at 1,500 or 500)
    long held = r.path("generated").path("acked").asLong();
    assertEquals(highest / 2 * 5, held, highest / 2, "the hold's window generated " + r.path("generated"));
    // latency of the rows written in the hold's window: its own, and those of its warm-up still in
    // flight at the handover (at most a second or two of them), not the steps' thousands
    assertEquals(held, r.path("latencyMillis").path("count").asLong(), highest, "latency of the hold's window only");
    assertTrue(r.path("table").path("expected").asLong() > 0, "lost 0 of nothing proves nothing: " + r.path("table"));
    assertEquals(0, r.path("table").path("lost").asLong());
    assertEquals(0, r.path("table").path("duplicated").asLong());
  }
}
