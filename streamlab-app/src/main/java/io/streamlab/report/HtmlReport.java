package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * report.html: one self-contained page (inline SVG, no script, no network) of a run, drawn from
 * its results.json: the figures beside the study's, throughput per stage, backlog and latency
 * over time, latency percentiles, wall time and element size per stage, and the configuration.
 */
public final class HtmlReport {
  private HtmlReport() {}

  public static Path write(JsonNode results, Path runDir) throws IOException {
    Path file = runDir.resolve("report.html");
    Files.writeString(file, render(results));
    return file;
  }

  static String render(JsonNode r) {
    JsonNode run = r.path("run"), table = r.path("table"), ing = r.path("ingestion"), lat = r.path("latencyMillis"),
        ref = r.path("reference");
    StringBuilder h = new StringBuilder();
    Page.open(h, "streamlab run " + run.path("name").asText());
    h.append("<h1>streamlab run: ").append(Svg.esc(run.path("name").asText())).append("</h1>\n");
    h.append("<p class=\"sub\">").append(Svg.esc(run.path("description").asText())).append("<br>mode ")
        .append(Svg.esc(run.path("mode").asText())).append(" &middot; started ")
        .append(Svg.esc(run.path("startedAt").asText())).append("</p>\n");
    boolean ok = table.path("lost").asLong() == 0;
    h.append("<p class=\"").append(ok ? "ok" : "bad").append("\">").append(ok ? "No row lost." : "ROWS LOST.")
        .append(String.format(Locale.ROOT, " %,d rows expected, %,d lost, %,d duplicated, %,d dead-lettered %s.</p>%n",
            table.path("expected").asLong(), table.path("lost").asLong(), table.path("duplicated").asLong(),
            table.path("failed").asLong(), Svg.esc(table.path("failedByStage").toString())));

    h.append("<h2>Figures</h2>\n<table><tr><th>figure</th><th>this run</th><th>the study</th></tr>\n");
    Page.row(h, "events/s (measurement window)", Svg.number(ing.path("eventsPerSec").asDouble()), "1,000,000 (on many workers)");
    Page.row(h, "MB/s", fmt(ing.path("megabytesPerSec").asDouble()), "");
    Page.row(h, "MB/s per ingestion core", fmt(ing.path("megabytesPerSecPerIngestCore").asDouble()),
        fmt(ref.path("megabytesPerSecPerCoreAtLeastOnce").asDouble()) + " at-least-once, ~"
            + fmt(ref.path("megabytesPerSecPerCoreExactlyOnce").asDouble()) + " exactly-once");
    Page.row(h, "latency p50 / p90 ms", fmt(lat.path("p50").asDouble()) + " / " + fmt(lat.path("p90").asDouble()), "");
    Page.row(h, "latency p99 ms", fmt(lat.path("p99").asDouble()), "&lt; " + fmt(ref.path("p99Millis").asDouble()));
    Page.row(h, "latency p99.9 / max ms", fmt(lat.path("p99.9").asDouble()) + " / " + fmt(lat.path("max").asDouble()), "");
    Page.row(h, "ingestion CPU seconds", fmt(ing.path("cpuSeconds").asDouble()), "");
    Page.row(h, "ingestion heap peak MB", String.valueOf(ing.path("heapPeakBytes").asLong() >> 20), "");
    if (ing.has("allocatedBytesPerEvent")) {
      Page.row(h, "heap bytes allocated per event", Svg.number(ing.path("allocatedBytesPerEvent").asDouble()), "");
    }
    if (r.has("shuffle")) {
      Page.row(h, "bytes shuffled / bytes read", Svg.number(r.path("shuffle").path("bytesShuffled").asDouble()) + " / "
          + Svg.number(r.path("shuffle").path("bytesRead").asDouble()), "25 TB / 7 TB (exactly-once)");
    }
    if (ing.has("maxSustainedEventsPerSec")) {
      Page.row(h, "highest sustained events/s", Svg.number(ing.path("maxSustainedEventsPerSec").asDouble()), "");
    }
    h.append("</table>\n");
    if (r.has("sources")) {
      h.append("<p class=\"sub\">Where the figures come from:</p>\n<table><tr><th>figure</th><th>measured as</th></tr>\n");
      r.path("sources").fields().forEachRemaining(e -> h.append("<tr><td>").append(Svg.esc(e.getKey()))
          .append("</td><td>").append(Svg.esc(e.getValue().asText())).append("</td></tr>\n"));
      h.append("</table>\n");
    }

    JsonNode series = r.path("series");
    double[] t = column(series, "t");
    h.append("<h2>Throughput</h2>\n");
    List<Svg.Line> rates = new ArrayList<>();
    rates.add(new Svg.Line("generated", t, values(series, "generatedPerSec")));
    rates.add(new Svg.Line("ingested", t, values(series, "ingestedPerSec")));
    for (JsonNode stage : r.path("stages")) {
      String key = stage.path("stage").asText() + "PerSec";
      rates.add(new Svg.Line("stage " + stage.path("stage").asText(), t, values(series, key)));
    }
    h.append(Svg.lineChart("Throughput per stage over time", "seconds since ingestion started", "events/s", rates));
    h.append(Svg.lineChart("Backlog over time (acknowledged, not yet in the table)", "seconds", "events",
        List.of(new Svg.Line("backlog", t, values(series, "backlog")))));
    h.append(Svg.lineChart("Ingestion CPU over time", "seconds", "cores busy",
        List.of(new Svg.Line("ingestion process", t, values(series, "cpuCores")))));

    h.append("<h2>Latency</h2>\n<p>End to end, from each event's intended send time to the moment its row is "
        + "visible in the table (HdrHistogram), so a slow pipeline cannot hide queueing delay.</p>\n");
    h.append(Svg.lineChart("Latency over time", "seconds", "ms", List.of(
        new Svg.Line("p50", t, values(series, "p50Millis")), new Svg.Line("p99", t, values(series, "p99Millis")))));
    List<Svg.Bar> pct = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = lat.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getKey().equals("count")) pct.add(new Svg.Bar(e.getKey(), e.getValue().asDouble()));
    }
    h.append(Svg.barChart("Latency percentiles, measurement window", "ms", pct, ref.path("p99Millis").asDouble(),
        "study p99 bound"));

    h.append("<h2>Stages</h2>\n");
    List<Svg.Bar> wall = new ArrayList<>(), size = new ArrayList<>(), fromRead = new ArrayList<>();
    h.append("<table><tr><th>stage</th><th>elements</th><th>events/s</th><th>MB/s</th><th>wall s</th>"
        + "<th>mean element B</th><th>mean ms from read to output</th><th>mean ms from send to output</th></tr>\n");
    for (JsonNode s : r.path("stages")) {
      String name = s.path("stage").asText();
      wall.add(new Svg.Bar(name, s.path("wallSeconds").asDouble()));
      if (s.path("meanElementBytes").asDouble() > 0) size.add(new Svg.Bar(name, s.path("meanElementBytes").asDouble()));
      if (s.path("fromReadMeanMillis").isNumber()) fromRead.add(new Svg.Bar(name, s.path("fromReadMeanMillis").asDouble()));
      h.append("<tr><td>").append(Svg.esc(name)).append("</td><td>").append(Svg.number(s.path("elements").asDouble()))
          .append("</td><td>").append(Svg.number(s.path("eventsPerSec").asDouble())).append("</td><td>")
          .append(fmt(s.path("megabytesPerSec").asDouble())).append("</td><td>").append(fmt(s.path("wallSeconds").asDouble()))
          .append("</td><td>").append(s.path("meanElementBytes").asDouble() > 0 ? Svg.number(s.path("meanElementBytes").asDouble()) : "n/a")
          .append("</td><td>").append(millis(s.path("fromReadMeanMillis"))).append("</td><td>")
          .append(millis(s.path("sinceSendMeanMillis"))).append("</td></tr>\n");
    }
    h.append("</table>\n");
    h.append(Svg.barChart("Wall time per stage (busy seconds, summed over workers)", "seconds", wall, null, null));
    if (!size.isEmpty()) h.append(Svg.barChart("Mean element size per stage", "bytes", size, null, null));
    if (!fromRead.isEmpty()) {
      h.append("<p>Per-stage latency: the mean time from an event's read to each stage's output (the difference of "
          + "the mean ages of the stage's output and of the read, ages counted from the intended send time); the "
          + "write's is the time until the row is visible, shuffle included.</p>\n");
      h.append(Svg.barChart("Mean time from read to each stage's output", "ms", fromRead, null, null));
    }

    if (r.has("steps")) {
      h.append("<h2>Max-rate search</h2>\n<table><tr><th>target/s</th><th>generated/s</th><th>ingested/s</th>"
          + "<th>backlog growth</th><th>p99 ms</th><th>MB/s per core</th><th>sustained</th></tr>\n");
      for (JsonNode s : r.path("steps")) {
        h.append("<tr><td>").append(Svg.number(s.path("targetEventsPerSec").asDouble())).append("</td><td>")
            .append(Svg.number(s.path("generatedEventsPerSec").asDouble())).append("</td><td>")
            .append(Svg.number(s.path("ingestedEventsPerSec").asDouble())).append("</td><td>")
            .append(Svg.number(s.path("backlogGrowth").asDouble())).append("</td><td>")
            .append(fmt(s.path("p99Millis").asDouble())).append("</td><td>")
            .append(fmt(s.path("megabytesPerSecPerIngestCore").asDouble())).append("</td><td>")
            .append(s.path("sustained").asBoolean() ? "yes" : "no").append("</td></tr>\n");
      }
      h.append("</table>\n");
    }

    h.append("<h2>Configuration</h2>\n");
    Page.keyValues(h, r.path("configuration"));
    h.append("<h2>Machine</h2>\n");
    Page.keyValues(h, r.path("machine"));
    Page.close(h);
    return h.toString();
  }

  private static String millis(JsonNode v) {
    return v.isNumber() ? fmt(v.asDouble()) : "n/a";
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.1f", v);
  }

  static double[] column(JsonNode rows, String key) {
    double[] v = new double[rows.size()];
    for (int i = 0; i < v.length; i++) v[i] = rows.get(i).path(key).asDouble();
    return v;
  }

  static Double[] values(JsonNode rows, String key) {
    Double[] v = new Double[rows.size()];
    for (int i = 0; i < v.length; i++) {
      JsonNode n = rows.get(i).get(key);
      v[i] = n == null || n.isNull() ? null : n.asDouble();
    }
    return v;
  }
}
