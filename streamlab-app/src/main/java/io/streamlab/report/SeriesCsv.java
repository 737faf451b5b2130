package io.streamlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** timeseries.csv: the series of results.json, one row a second, for spreadsheets and plotting tools. */
public final class SeriesCsv {
  private SeriesCsv() {}

  public static Path write(JsonNode results, Path runDir) throws IOException {
    JsonNode series = results.path("series");
    Set<String> columns = new LinkedHashSet<>(); // stages appear once they see elements: take every key
    for (JsonNode row : series) {
      for (Iterator<String> it = row.fieldNames(); it.hasNext(); ) columns.add(it.next());
    }
    List<String> lines = new ArrayList<>();
    lines.add(String.join(",", columns));
    for (JsonNode row : series) {
      List<String> cells = new ArrayList<>();
      for (String c : columns) {
        JsonNode v = row.get(c);
        cells.add(v == null || v.isNull() ? "" : v.isTextual() ? quote(v.asText()) : v.asText());
      }
      lines.add(String.join(",", cells));
    }
    Path file = runDir.resolve("timeseries.csv");
    Files.write(file, lines);
    return file;
  }

  private static String quote(String s) {
    return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }
}
