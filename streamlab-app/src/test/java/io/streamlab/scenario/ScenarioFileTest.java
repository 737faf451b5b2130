package io.streamlab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioFileTest {
  @TempDir Path dir;

  @Test
  void leadingCommentsDescribeAndKeysKeepTheirOrderAndLines() {
    Scenario s = ScenarioFile.parse("x", "# first line\n# second line\n\nratePerSec = 5000\n# later comment\n"
        + "duration=10s\n", "x.properties");
    assertEquals("first line second line", s.description());
    assertEquals(List.of(new Scenario.Setting("ratePerSec", "5000", 4), new Scenario.Setting("duration", "10s", 6)),
        s.settings());
  }

  @Test
  void aLineWithoutKeyAndValueIsAClearError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ScenarioFile.parse("x", "ratePerSec = 1\nduration 10s\n", "x.properties"));
    assertEquals("x.properties line 2: expected 'key = value', got 'duration 10s'", e.getMessage());
  }

  @Test
  void keysAreWrittenWithoutDashes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ScenarioFile.parse("x", "--ratePerSec = 1\n", "x.properties"));
    assertTrue(e.getMessage().contains("without dashes: 'ratePerSec'"), e.getMessage());
  }

  @Test
  void builtInsAreTheQuickstartAndTheStudysSevenRuns() {
    List<String> names = ScenarioCatalog.builtIn().stream().map(Scenario::name).toList();
    assertEquals(List.of("1-default", "2-512-keys", "3-auto-sharding", "4-storage-write-api", "5-beam-row",
        "6-avro", "7-at-least-once-avro", "quickstart"), names);
    for (Scenario s : ScenarioCatalog.builtIn()) assertTrue(!s.description().isEmpty(), s.name());
  }

  @Test
  void aScenarioFileIsFoundByPathAndAnUnknownNameListsTheBuiltIns() throws Exception {
    Path f = Files.writeString(dir.resolve("mine.properties"), "# mine\nratePerSec = 7\n");
    assertEquals("mine", ScenarioCatalog.resolve(f.toString()).name());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioCatalog.resolve("nope"));
    assertTrue(e.getMessage().startsWith("no scenario 'nope'; built-in: 1-default, "), e.getMessage());
  }
}
