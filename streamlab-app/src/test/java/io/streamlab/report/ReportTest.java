package io.streamlab.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.bench.Sample;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.Stage;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
  @Test
  void seriesRatesAreDifferencesOfConsecutiveSamples() {
    List<Sample> samples = List.of(
        new Sample(10_000, 1.0, "measure", 1_000, 500, 1_000_000, 0.5, 1 << 20, Map.of(Stage.WRITE, new StageCounts(500, 0, 0))),
        new Sample(12_000, 3.0, "measure", 5_000, 4_500, 5_000_000, 2.5, 2 << 20, Map.of(Stage.WRITE, new StageCounts(4_500, 0, 0))));
    Histogram h = new Histogram(3_600_000_000L, 3);
    h.recordValue(200_000);
    List<LatencyLog.Interval> latency = List.of(new LatencyLog.Interval(10_900, 11_900, h));
    List<Map<String, Object>> rows = ResultsJson.series(samples, latency);
    assertEquals(2_000.0, rows.get(1).get("generatedPerSec"));
    assertEquals(2_000.0, rows.get(1).get("ingestedPerSec"));
    assertEquals(2_000.0, rows.get(1).get("writePerSec"));
    assertEquals(2.0, rows.get(1).get("readMBPerSec"));
    assertEquals(1.0, rows.get(1).get("cpuCores"));
    assertEquals(500L, rows.get(1).get("backlog"));
    assertNull(rows.get(0).get("p99Millis"), "no interval had ended by the first sample");
    assertEquals(200.0, (double) rows.get(1).get("p99Millis"), 0.5);
  }

  @Test
  void niceTicksCoverTheMaximum() {
    assertArrayEquals(new double[] {0, 2_000, 4_000, 6_000, 8_000, 10_000}, Svg.ticks(9_300));
    assertArrayEquals(new double[] {0, 1}, Svg.ticks(0));
    assertArrayEquals(new double[] {0, 0.05, 0.1, 0.15, 0.2, 0.25}, Svg.ticks(0.25), 1e-12);
  }

  @Test
  void aLineChartDrawsOnePointPerValueAndBreaksAtGaps() {
    String svg = Svg.lineChart("t", "x", "y", List.of(
        new Svg.Line("a", new double[] {0, 1, 2, 3, 4}, new Double[] {1.0, 2.0, null, 4.0, 5.0})));
    Matcher m = Pattern.compile("points=\"([^\"]*)\"").matcher(svg);
    int polylines = 0, points = 0;
    while (m.find()) {
      polylines++;
      points += m.group(1).split(" ").length;
    }
    assertEquals(2, polylines, svg);
    assertEquals(4, points, svg);
  }

  @Test
  void aCategoryAxisLabelsEachPointWithItsName() {
    String svg = Svg.lineChart("sweep", "message size", "MB/s",
        List.of(Svg.Line.of("publish", new double[] {0, 1, 2}, new double[] {5, 7, 6})), List.of("1KB", "10KB", "100KB"));
    for (String label : List.of(">1KB<", ">10KB<", ">100KB<")) assertTrue(svg.contains(label), svg);
  }

  @Test
  void theHtmlReportShowsTheFiguresBesideTheStudy() throws Exception {
    JsonNode r = ResultsJson.MAPPER.readTree("""
        {"run": {"name": "quick", "description": "d", "mode": "steady", "startedAt": "now"},
         "table": {"expected": 10, "lost": 0, "duplicated": 0, "failed": 0, "failedByStage": {}},
         "ingestion": {"eventsPerSec": 12345, "megabytesPerSec": 14.2, "megabytesPerSecPerIngestCore": 21.5,
                       "cpuSeconds": 3, "heapPeakBytes": 104857600},
         "latencyMillis": {"p50": 100, "p90": 150, "p99": 250, "p99.9": 300, "max": 400, "count": 10},
         "reference": {"megabytesPerSecPerCoreAtLeastOnce": 6.4, "megabytesPerSecPerCoreExactlyOnce": 6.0, "p99Millis": 300},
         "stages": [{"stage": "write", "elements": 10, "bytes": 0, "wallSeconds": 1.5, "eventsPerSec": 5,
                     "megabytesPerSec": 0, "meanElementBytes": 0}],
         "series": [{"t": 1, "generatedPerSec": 10, "ingestedPerSec": 9, "backlog": 1, "p50Millis": 90,
                     "p99Millis": 200, "cpuCores": 0.5, "writePerSec": 9},
                    {"t": 2, "generatedPerSec": 11, "ingestedPerSec": 12, "backlog": 0, "p50Millis": 95,
                     "p99Millis": 210, "cpuCores": 0.6, "writePerSec": 12}],
         "configuration": {"ratePerSec": "10000"}, "machine": {"cores": 2}}
        """);
    String html = HtmlReport.render(r);
    assertTrue(html.contains("<td>MB/s per ingestion core</td><td>21.5</td><td>6.4 at-least-once"), html);
    assertTrue(html.contains("<td>latency p99 ms</td><td>250</td><td>&lt; 300</td>"), html);
    assertTrue(html.contains("No row lost."), html);
    assertEquals(6, html.split("<svg ").length - 1, "throughput, backlog, CPU, latency, percentiles, wall time; "
        + "no element-size chart when no stage knows its sizes");
    assertTrue(!html.contains("http://") || html.indexOf("http://") == html.indexOf("http://www.w3.org/2000/svg"),
        "no external resources");

    ((com.fasterxml.jackson.databind.node.ObjectNode) r.path("stages").get(0)).put("fromReadMeanMillis", 42.0)
        .put("sinceSendMeanMillis", 50.0);
    String withLatency = HtmlReport.render(r);
    assertTrue(withLatency.contains("<td>42.0</td><td>50.0</td></tr>"), "per-stage latency in the stage table");
    assertEquals(7, withLatency.split("<svg ").length - 1, "and a chart of the time from read to each stage's output");
  }
}
