package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Several runs side by side (the study's seven runs in one table and a few charts), from their results.json. */
public final class Compare {
  private Compare() {}

  /** The column heads and how each cell is read from a results.json. */
  private record Column(String head, java.util.function.Function<JsonNode, String> cell) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("run", r -> r.path("run").path("name").asText()),
      new Column("mode", r -> r.path("run").path("mode").asText()),
      new Column("writeMethod", r -> r.path("configuration").path("writeMethod").asText("-")),
      new Column("formatToStore", r -> r.path("configuration").path("formatToStore").asText("-")),
      new Column("events/s", r -> Svg.number(r.path("ingestion").path("eventsPerSec").asDouble())),
      new Column("MB/s", r -> HtmlReport.fmt(r.path("ingestion").path("megabytesPerSec").asDouble())),
      new Column("MB/s/core", r -> HtmlReport.fmt(r.path("ingestion").path("megabytesPerSecPerIngestCore").asDouble())),
      new Column("p50 ms", r -> HtmlReport.fmt(r.path("latencyMillis").path("p50").asDouble())),
      new Column("p99 ms", r -> HtmlReport.fmt(r.path("latencyMillis").path("p99").asDouble())),
      new Column("lost", r -> String.valueOf(r.path("table").path("lost").asLong())),
      new Column("dup", r -> String.valueOf(r.path("table").path("duplicated").asLong())),
      new Column("failed", r -> String.valueOf(r.path("table").path("failed").asLong())),
      new Column("CPU-s", r -> HtmlReport.fmt(r.path("ingestion").path("cpuSeconds").asDouble())));

  /** A fixed-width text table for the console. */
  public static String table(List<JsonNode> runs) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(COLUMNS.stream().map(Column::head).toList());
    for (JsonNode r : runs) rows.add(COLUMNS.stream().map(c -> c.cell().apply(r)).toList());
    int[] width = new int[COLUMNS.size()];
    for (List<String> row : rows) for (int i = 0; i < width.length; i++) width[i] = Math.max(width[i], row.get(i).length());
    StringBuilder sb = new StringBuilder();
    for (List<String> row : rows) {
      for (int i = 0; i < width.length; i++) {
        String f = i < 4 ? "%-" + width[i] + "s  " : "%" + width[i] + "s  ";
        sb.append(String.format(Locale.ROOT, f, row.get(i)));
      }
      sb.append(System.lineSeparator());
    }
    return sb.toString();
  }

  public static Path writeHtml(List<JsonNode> runs, Path file) throws IOException {
    StringBuilder h = new StringBuilder();
    Page.open(h, "streamlab compare");
    h.append("<h1>streamlab: ").append(runs.size()).append(" runs compared</h1>\n<table><tr>");
    for (Column c : COLUMNS) h.append("<th>").append(Svg.esc(c.head())).append("</th>");
    h.append("</tr>\n");
    for (JsonNode r : runs) {
      h.append("<tr>");
      for (Column c : COLUMNS) h.append("<td>").append(Svg.esc(c.cell().apply(r))).append("</td>");
      h.append("</tr>\n");
    }
    h.append("</table>\n");
    h.append(Svg.barChart("MB/s per ingestion core", "MB/s per core",
        bars(runs, r -> r.path("ingestion").path("megabytesPerSecPerIngestCore").asDouble()),
        runs.isEmpty() ? null : runs.get(0).path("reference").path("megabytesPerSecPerCoreAtLeastOnce").asDouble(),
        "study 6.4"));
    h.append(Svg.barChart("Events per second (measurement window)", "events/s",
        bars(runs, r -> r.path("ingestion").path("eventsPerSec").asDouble()), null, null));
    h.append(Svg.barChart("Latency p99", "ms", bars(runs, r -> r.path("latencyMillis").path("p99").asDouble()),
        runs.isEmpty() ? null : runs.get(0).path("reference").path("p99Millis").asDouble(), "study bound"));
    Page.close(h);
    Files.writeString(file, h.toString());
    return file;
  }

  private static List<Svg.Bar> bars(List<JsonNode> runs, ToDoubleFunction<JsonNode> value) {
    return runs.stream().map(r -> new Svg.Bar(r.path("run").path("name").asText(), value.applyAsDouble(r))).toList();
  }
}
