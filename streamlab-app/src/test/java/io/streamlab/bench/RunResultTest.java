package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Dead letters reach the summary, counted per stage. */
class RunResultTest {
  @Test
  void summaryCountsDeadLettersPerStage() {
    Map<String, Long> failed = new TreeMap<>(Map.of("decode", 2L, "decompress", 3L, "udf", 1L));
    Verification v = new Verification(100, 100, 100, 0, 0, 0, failed, 94, 1, 2);
    RunResult r = new RunResult(new RunInfo("t", "", RunMode.STEADY, "now", Map.of()), new GeneratorStats(), v, 0, 0,
        Duration.ZERO, 0, 1, new Histogram(3), 2, Map.of(), 0, List.of(), List.of(), List.of(), 0, 0,
        FigureSources.EMBEDDED);
    String line = r.summaryLine();
    assertTrue(line.contains(" failed=6 failedByStage=decode:2,decompress:3,udf:1 "), line);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.print(new PrintStream(out, true));
    assertTrue(out.toString().contains("(+ 6 dead-lettered {decode=2, decompress=3, udf=1})"), out.toString());
    assertTrue(Double.isNaN(r.allocatedBytesPerEvent()), "no allocation figure: unknown, not 0");
    assertTrue(out.toString().contains("allocated n/a"), out.toString());
  }

  @Test
  void allocationIsPerEventOfTheWindow() {
    Verification v = new Verification(100, 100, 100, 0, 0, 0, Map.of(), 100, 1, 2);
    RunResult r = new RunResult(new RunInfo("t", "", RunMode.DRAIN, "now", Map.of()), new GeneratorStats(), v, 4_000, 0,
        Duration.ZERO, 0, 1, new Histogram(3), 2, Map.of(), 0, List.of(), List.of(), List.of(), 0, 0,
        FigureSources.EMBEDDED, Verdict.Promise.AT_LEAST_ONCE, io.streamlab.pipeline.IngestStatus.NONE, 0, 10_000_000,
        null, 0);
    assertEquals(2_500, r.allocatedBytesPerEvent(), 1e-9);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.print(new PrintStream(out, true));
    assertTrue(out.toString().contains("allocated 2,500 bytes per event"), out.toString());
    assertFalse(out.toString().contains("store server"), "no server figures, no line: " + out);
  }

  @Test
  void aStoreServersCheckpointsAreInTheSummaryWithTheirSettings() {
    Verification v = new Verification(100, 100, 100, 0, 0, 0, Map.of(), 100, 1, 2);
    StoreServerFigures server = new StoreServerFigures("PostgreSQL",
        Map.of("server_version", "15.20", "max_wal_size", "1GB", "checkpoint_timeout", "5min", "shared_buffers", "128MB"), 9);
    RunResult r = new RunResult(new RunInfo("t", "", RunMode.STEADY, "now", Map.of()), new GeneratorStats(), v, 100, 0,
        Duration.ZERO, 0, 1, new Histogram(3), 2, Map.of(), 0, List.of(), List.of(), List.of(), 0, 0,
        FigureSources.EMBEDDED, Verdict.Promise.AT_LEAST_ONCE, io.streamlab.pipeline.IngestStatus.NONE, 0, 0, server, 0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.print(new PrintStream(out, true));
    assertTrue(out.toString().contains("store server         PostgreSQL 15.20: 9 checkpoints in the window "
        + "(max_wal_size 1GB, checkpoint_timeout 5min, shared_buffers 128MB)"), out.toString());
  }
}
