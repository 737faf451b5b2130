package io.streamlab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFilesTest {
  @TempDir Path dir;

  record Row(String name, @JsonProperty("events_per_sec") double eventsPerSec, long lost, String note) {}

  @Test
  void aRecordIsACsvRowInItsComponentsOrderQuotedWhereNeeded() throws Exception {
    Path file = ReportFiles.writeCsv(dir.resolve("r.csv"), Row.class,
        List.of(new Row("zeta", 1234.5, 0, "plain"), new Row("alpha", 2, 3, "a, \"quoted\" note")));
    assertEquals(List.of("name,events_per_sec,lost,note", "zeta,1234.5,0,plain", "alpha,2.0,3,\"a, \"\"quoted\"\" note\""),
        Files.readAllLines(file), "not CsvMapper's default alphabetical order");
  }

  @Test
  void rowsOfRunTimeColumnsLeaveMissingAndNullCellsEmpty() throws Exception {
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("t", 1.0);
    first.put("p99Millis", null);
    Map<String, Object> second = new LinkedHashMap<>(Map.of("t", 2.0, "p99Millis", 250.0, "writePerSec", 900.0));
    Path file = ReportFiles.writeCsv(dir.resolve("s.csv"), List.of("t", "p99Millis", "writePerSec"), List.of(first, second));
    assertEquals(List.of("t,p99Millis,writePerSec", "1.0,,", "2.0,250.0,900.0"), Files.readAllLines(file));
  }

  @Test
  void jsonWritesDurationsAsTheirIsoText() {
    assertEquals("\"PT10S\"", ReportFiles.JSON.valueToTree(Duration.ofSeconds(10)).toString());
  }
}
