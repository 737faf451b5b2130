package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * study.html: the study's table beside the study's figures, whether the lab reproduces its shape,
 * and charts over the runs (throughput, keys/shards and latency over time, cores and latency per
 * run), drawn from study.json and the runs' results.json.
 */
public final class StudyReport {
  /** The series field a run records its active write keys or shards under (see StudyRow). */
  static final String ACTIVE_KEYS = "activeKeys";

  private StudyReport() {}

  /**
   * @param searches each scenario's max-rate search results.json (absent: no search)
   * @param steadies each scenario's steady window results.json
   */
  public static Path write(JsonNode study, Map<String, JsonNode> searches, Map<String, JsonNode> steadies, Path dir)
      throws IOException {
    Path file = dir.resolve("study.html");
    Files.writeString(file, render(study, searches, steadies, dir));
    return file;
  }

  static String render(JsonNode study, Map<String, JsonNode> searches, Map<String, JsonNode> steadies, Path dir) {
    StringBuilder h = new StringBuilder();
    Page.open(h, "streamlab study");
    JsonNode rows = study.path("rows");
    h.append("<h1>streamlab study: the seven runs beside the study's</h1>\n<p class=\"sub\">")
        .append(Svg.esc(study.path("studySource").asText())).append("</p>\n");
    boolean ok = true;
    for (JsonNode r : rows) ok &= r.path("lost").asLong() == 0;
    h.append("<p class=\"").append(ok ? "ok" : "bad").append("\">").append(ok ? "No row lost in any run." : "ROWS LOST.")
        .append("</p>\n");

    h.append("<h2>The table</h2>\n<table><tr><th>run</th><th>write method</th><th>format</th><th>keys</th>"
        + "<th>highest sustained /s</th><th>steady /s</th><th>CPU-s per M events</th><th>cores for 1 M/s</th>"
        + "<th>study cores</th><th>MB/s per core</th><th>study</th><th>p50 ms</th><th>p99 ms</th><th>study latency</th>"
        + "<th>shuffled / read</th><th>study shuffle</th><th>lost</th><th>dup</th></tr>\n");
    for (JsonNode r : rows) {
      JsonNode s = r.path("study");
      h.append("<tr>");
      cells(h, r.path("scenario").asText(), r.path("writeMethod").asText(), r.path("formatToStore").asText(),
          r.path("keys").asText(), num(r.get("highestSustainedPerSec")), num(r.get("eventsPerSec")),
          dec(r.get("cpuSecondsPerMillionEvents")), dec(r.get("coresForMillionPerSec")), s.path("coresText").asText("n/a"),
          dec(r.get("megabytesPerSecPerCore")), dec(s.get("mbPerSecPerCore")), num(r.get("p50Millis")),
          num(r.get("p99Millis")), s.path("latency").asText("n/a"), ratio(r.get("shuffledPerRead")),
          s.path("shuffle").asText("n/a"), r.path("lost").asText(), r.path("duplicated").asText());
      h.append("</tr>\n");
    }
    h.append("</table>\n<p class=\"sub\">Highest sustained: the max-rate search. The rest: the steady window, every run "
        + "at the same rate. Cores for 1 M events/s = CPU-seconds per million events of the pipeline's own processes; "
        + "the study's = its workers x ").append(study.path("studyVcpusPerWorker").asInt()).append(" vCPU.</p>\n");

    h.append("<h2>Does the lab reproduce the study's shape?</h2>\n<table><tr><th>finding</th><th>here</th>"
        + "<th>figures</th></tr>\n");
    for (JsonNode v : study.path("shape")) {
      String a = v.path("answer").asText();
      h.append("<tr><td>").append(Svg.esc(v.path("claim").asText())).append("</td><td class=\"")
          .append(a.equals("yes") ? "ok" : a.equals("no") ? "bad" : "sub").append("\">").append(a).append("</td><td>")
          .append(Svg.esc(v.path("evidence").asText())).append("</td></tr>\n");
    }
    h.append("</table>\n");

    h.append("<h2>Throughput</h2>\n");
    h.append(Svg.barChart("Highest sustained events/s (max-rate search)", "events/s",
        bars(rows, r -> r.path("highestSustainedPerSec").asDouble()), null, null));
    h.append(Svg.lineChart("Max-rate search: ingested events/s over time", "seconds since the first step",
        "events/s", lines(searches, "ingestedPerSec")));
    h.append(Svg.lineChart("Steady window: ingested events/s over time", "seconds since the window started",
        "events/s", lines(steadies, "ingestedPerSec")));
    h.append(Svg.barChart("Cores 1 M events/s would need (CPU-s per million events)", "cores",
        bars(rows, r -> r.path("coresForMillionPerSec").asDouble()), null, null));

    h.append("<h2>Keys and shards over time</h2>\n");
    List<Svg.Line> shards = lines(steadies, ACTIVE_KEYS);
    if (shards.isEmpty()) {
      h.append("<p>n/a: these runs do not record the write stage's active keys or shards over time "
          + "(results.json series field <code>").append(ACTIVE_KEYS).append("</code>). Configured keys are in the "
          + "table above.</p>\n");
    } else {
      h.append(Svg.lineChart("Active write keys / shards over time (steady window)", "seconds", "keys or shards", shards));
    }

    h.append("<h2>Latency</h2>\n<p>End to end, from each event's intended send time to the moment its row is visible.</p>\n");
    h.append(Svg.lineChart("Steady window: p99 over time", "seconds since the window started", "ms",
        lines(steadies, "p99Millis")));
    h.append(Svg.barChart("p99 per run (steady window)", "ms", bars(rows, r -> r.path("p99Millis").asDouble()),
        300.0, "study run 7: 300"));
    h.append(Svg.barChart("p50 per run (steady window)", "ms", bars(rows, r -> r.path("p50Millis").asDouble()), null, null));

    h.append("<h2>Stages and shuffle</h2>\n");
    h.append(Svg.barChart("Bytes shuffled per byte read", "x read", bars(rows, r -> r.path("shuffledPerRead").asDouble()),
        25.0 / 7.0, "study: 25 TB / 7 TB"));
    h.append("<table><tr><th>run</th><th>wall seconds per stage (steady window)</th>"
        + "<th>mean ms from read to the stage's output</th><th>B/element after convert</th>"
        + "<th>active keys/shards (max)</th><th>connections</th><th>appends per connection</th>"
        + "<th>warehouse model</th><th>runs</th></tr>\n");
    for (JsonNode r : rows) {
      h.append("<tr><td>").append(Svg.esc(r.path("scenario").asText())).append("</td><td>");
      r.path("stageWallSeconds").fields().forEachRemaining(e -> h.append(Svg.esc(e.getKey())).append(' ')
          .append(HtmlReport.fmt(e.getValue().asDouble())).append(" &nbsp;"));
      h.append("</td><td>");
      r.path("stageMillisFromRead").fields().forEachRemaining(e -> h.append(Svg.esc(e.getKey())).append(' ')
          .append(HtmlReport.fmt(e.getValue().asDouble())).append(" &nbsp;"));
      h.append("</td><td>").append(num(r.get("convertedElementBytes"))).append("</td><td>")
          .append(num(r.get("activeKeysMax"))).append("</td><td>").append(num(r.get("connectionsOpened")))
          .append("</td><td>").append(dec(r.get("appendsPerConnection"))).append("</td><td>")
          .append(r.path("warehouseModel").isMissingNode() || r.path("warehouseModel").isNull() ? "n/a"
              : Svg.esc(r.path("warehouseModel").toString()))
          .append("</td><td>").append(link(dir, r.get("searchDirectory"), "search")).append(' ')
          .append(link(dir, r.get("steadyDirectory"), "steady")).append("</td></tr>\n");
    }
    h.append("</table>\n");
    h.append("<h2>How the study ran</h2>\n");
    Page.keyValues(h, study.path("settings"));
    Page.close(h);
    return h.toString();
  }

  /** One line per run of a series field, from the first measured second (the warm-up left out). */
  static List<Svg.Line> lines(Map<String, JsonNode> runs, String field) {
    List<Svg.Line> lines = new ArrayList<>();
    runs.forEach((name, r) -> {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      boolean any = false;
      Double t0 = null;
      for (JsonNode row : r.path("series")) {
        if (row.path("phase").asText().startsWith("warm-up")) continue;
        if (t0 == null) t0 = row.path("t").asDouble();
        xs.add(row.path("t").asDouble() - t0);
        JsonNode v = row.get(field);
        ys.add(v == null || v.isNull() ? null : v.asDouble());
        any |= v != null && !v.isNull();
      }
      if (any) lines.add(new Svg.Line(name, xs.stream().mapToDouble(Double::doubleValue).toArray(),
          ys.toArray(Double[]::new)));
    });
    return lines;
  }

  private static List<Svg.Bar> bars(JsonNode rows, ToDoubleFunction<JsonNode> value) {
    List<Svg.Bar> bars = new ArrayList<>();
    for (JsonNode r : rows) bars.add(new Svg.Bar(r.path("scenario").asText(), value.applyAsDouble(r)));
    return bars;
  }

  private static void cells(StringBuilder h, String... values) {
    for (String v : values) h.append("<td>").append(Svg.esc(v)).append("</td>");
  }

  private static String num(JsonNode v) {
    return v == null || v.isNull() ? "n/a" : Svg.number(v.asDouble());
  }

  private static String dec(JsonNode v) {
    return v == null || v.isNull() ? "n/a" : HtmlReport.fmt(v.asDouble());
  }

  private static String ratio(JsonNode v) {
    return v == null || v.isNull() ? "n/a" : String.format(java.util.Locale.ROOT, "%.2fx", v.asDouble());
  }

  /** A link to a run's report.html, relative to the study's directory. */
  private static String link(Path dir, JsonNode runDir, String label) {
    if (runDir == null || runDir.isNull()) return "";
    Path target = Path.of(runDir.asText()).resolve("report.html");
    String href = target.isAbsolute() && dir.isAbsolute() ? dir.relativize(target).toString() : target.toString();
    return "<a href=\"" + Svg.esc(href) + "\">" + label + "</a>";
  }
}
