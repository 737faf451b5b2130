package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    int code = cl.execute("run", "--duration=5s", "--warmup=0s", "--ratePerSec=2000", "--progressInterval=2s",
        "--runDir=" + runDir, "--parallelism=2");
    assertEquals(0, code, "exit code");
    String summary = Files.readString(runDir.resolve("summary.txt"));
    assertTrue(summary.contains(" lost=0 "), summary);
    assertTrue(summary.contains(" duplicated=0 "), summary);
    // ~10,000 events at 2,000/s for 5 s: the generator kept (roughly) to its schedule
    long generated = Long.parseLong(summary.replaceAll(".*generated=(\\d+).*\\s*", "$1"));
    assertTrue(generated > 8_000 && generated <= 10_000, summary);
    assertTrue(Files.size(runDir.resolve("results.json")) > 100);
  }
}
