package io.streamlab.report;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** timeseries.csv: the series of results.json, one row a second, for spreadsheets and plotting tools. */
public final class SeriesCsv {
  private SeriesCsv() {}

  public static Path write(JsonNode results, Path runDir) throws IOException {
    List<LinkedHashMap<String, Object>> rows = ReportFiles.JSON.convertValue(results.path("series"),
        new TypeReference<List<LinkedHashMap<String, Object>>>() {});
    Set<String> columns = new LinkedHashSet<>(); // stages appear once they see elements: take every key
    for (Map<String, Object> row : rows) columns.addAll(row.keySet());
    return ReportFiles.writeCsv(runDir.resolve("timeseries.csv"), new ArrayList<>(columns), rows);
  }
}
