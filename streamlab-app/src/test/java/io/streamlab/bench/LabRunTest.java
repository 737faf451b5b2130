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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code streamlab run} end to end: embedded broker, ingestion in its own process, verification. */
class LabRunTest {
  @TempDir Path dir;

  @Test
  void shortRunLosesNothingAndWritesResults() throws Exception {
    Path runDir = dir.resolve("run");
    StringWriter out = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    int code = cl.execute("run", "--warmup=2s", "--duration=5s", "--ratePerSec=2000", "--progressInterval=2s",
        "--runDir=" + runDir, "--parallelism=2");
    assertEquals(0, code, "exit code");
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
    // ~14,000 events at 2,000/s for 2 s of warm-up + 5 s measured: the generator kept
    // (roughly) to its schedule, and warm-up events are verified with the rest
    long generated = Long.parseLong(summary.replaceAll(".*generated=(\\d+).*\\s*", "$1"));
    assertTrue(generated > 11_000 && generated <= 14_000, summary);
    // the measured window holds exactly the measured phase's events, none of the warm-up's
    JsonNode results = new ObjectMapper().readTree(runDir.resolve("results.json").toFile());
    long measuredAcked = results.path("generated").path("acked").asLong(-1);
    assertTrue(measuredAcked > 8_000 && measuredAcked <= 10_000, results.toString());
    assertEquals(measuredAcked, results.path("table").path("measuredRows").asLong(-1), results.toString());
    assertTrue(results.path("latencyMillis").path("count").asLong() >= measuredAcked, results.toString());
  }
}
