package io.streamlab.loadtest;

import static io.streamlab.report.Svg.esc;

import io.streamlab.report.Page;
import io.streamlab.report.Svg;
import io.streamlab.report.Svg.Line;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * {@code loadtest.html}: one page, readable offline (charts are inline SVG, in the frame and
 * chart style of the run and study reports): the results table, for a sweep throughput and
 * latency per point, for a max-rate search its trials, and for every point its time series (MB/s
 * and p99 per interval).
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static void write(Path file, LoadtestReport report) throws IOException {
    StringBuilder h = new StringBuilder();
    Page.open(h, "streamlab loadtest");
    h.append("<h1>streamlab loadtest</h1>\n<p class=\"sub\">").append(esc(report.machine())).append("</p>\n");
    h.append(resultsTable(report.points()));
    List<PointResult> points = report.points();
    if (points.size() > 1) {
      List<String> labels = points.stream().map(PointResult::label).toList();
      double[] index = new double[points.size()];
      for (int i = 0; i < index.length; i++) index[i] = i;
      h.append("<h2>Per point</h2>\n");
      h.append(Svg.lineChart("Throughput per point", report.sweep(), "MB/s", List.of(
          Line.of("publish MB/s", index, values(points, PointResult::publishMegabytesPerSecond)),
          Line.of("subscribe MB/s", index, values(points, PointResult::subscribeMegabytesPerSecond))), labels));
      h.append(Svg.lineChart("Latency per point (from intended send time)", report.sweep(), "ms", List.of(
          Line.of("publish p99", index, values(points, r -> r.publishLatency().p99())),
          Line.of("end-to-end p99", index, values(points, r -> r.endToEnd().p99())),
          Line.of("end-to-end p50", index, values(points, r -> r.endToEnd().p50()))), labels));
    }
    if (report.maxRate() != null) h.append(maxRateTable(report.maxRate()));
    for (PointResult r : points) {
      h.append("<h2>").append(esc(r.label())).append(" over time</h2>\n");
      List<IntervalSample> s = r.samples();
      double[] t = s.stream().mapToDouble(IntervalSample::elapsedSeconds).toArray();
      h.append(Svg.lineChart("Throughput per interval", "seconds", "MB/s", List.of(
          Line.of("publish", t, s.stream().mapToDouble(IntervalSample::publishMegabytesPerSecond).toArray()),
          Line.of("subscribe", t, s.stream().mapToDouble(IntervalSample::subscribeMegabytesPerSecond).toArray()))));
      h.append(Svg.lineChart("Latency per interval", "seconds", "ms", List.of(
          Line.of("publish p99", t, s.stream().mapToDouble(x -> x.publishLatency().p99()).toArray()),
          Line.of("end-to-end p99", t, s.stream().mapToDouble(x -> x.endToEnd().p99()).toArray()),
          Line.of("end-to-end max", t, s.stream().mapToDouble(x -> x.endToEnd().max()).toArray()))));
    }
    Page.close(h);
    Files.writeString(file, h);
  }

  private static double[] values(List<PointResult> points, ToDoubleFunction<PointResult> f) {
    return points.stream().mapToDouble(f).toArray();
  }

  private static String resultsTable(List<PointResult> points) {
    StringBuilder t = new StringBuilder("<table><tr><th>point</th><th>message size</th><th>threads</th>"
        + "<th>pub msg/s</th><th>pub MB/s</th><th>pub p99 ms</th><th>sub msg/s</th><th>sub MB/s</th>"
        + "<th>e2e p50 ms</th><th>e2e p99 ms</th><th>e2e p99.9 ms</th><th>missing</th><th>duplicates</th>"
        + "<th>errors</th><th>CPU cores</th></tr>\n");
    for (PointResult r : points) {
      t.append(String.format("<tr><td>%s</td><td>%s</td><td>%d</td><td>%,.0f</td><td>%.2f</td><td>%.1f</td>"
              + "<td>%,.0f</td><td>%.2f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td>"
              + "<td>%.2f</td></tr>%n", esc(r.label()), esc(r.settings().messageSizes().toString()),
          r.settings().publishingThreads(), r.publishMessagesPerSecond(), r.publishMegabytesPerSecond(),
          r.publishLatency().p99(), r.subscribeMessagesPerSecond(), r.subscribeMegabytesPerSecond(), r.endToEnd().p50(),
          r.endToEnd().p99(), r.endToEnd().p999(), r.missing(), r.duplicates(), r.publishErrors(), r.cpuCores()));
    }
    return t.append("</table>\n").toString();
  }

  private static String maxRateTable(MaxRateSearch.Outcome outcome) {
    StringBuilder t = new StringBuilder(String.format(
        "<h2>Max-rate search: highest sustained %,.0f msg/s</h2>%n<table><tr><th>target msg/s</th><th>achieved msg/s</th>"
            + "<th>backlog growth</th><th>e2e p99 ms</th><th>sustained</th></tr>%n", outcome.highestSustained()));
    for (MaxRateSearch.Step s : outcome.steps()) {
      PointResult r = s.result();
      t.append(String.format("<tr><td>%,.0f</td><td>%,.0f</td><td>%,d</td><td>%.1f</td><td>%s</td></tr>%n",
          s.ratePerSec(), r.publishMessagesPerSecond(), r.backlogAtWindowEnd() - r.backlogAtWindowStart(),
          r.endToEnd().p99(), s.sustained() ? "yes" : "no"));
    }
    return t.append("</table>\n").toString();
  }
}
