package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import io.streamlab.store.postgres.TestPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The smoke version of {@code scripts/bench-vs-peer}: a small Kafka -> PostgreSQL drain per write
 * semantics, the same command the script runs. It prints the figures the script compares (events
 * per pipeline CPU-second, MB/s per core, p99) and asserts only correctness: every event in the
 * table, none twice, and that the measurement window saw rows at all. Speed is not asserted: on a
 * small N start-up noise dominates. 200,000 events: with the faster hot path a 30,000-event drain
 * was over before the warm-up's end was seen, and the figures printed were 0.
 */
class BenchSmokeTest {
  private static final int EVENTS = Integer.getInteger("bench.smoke.events", 200_000);
  private static final int WARMUP = 20_000;

  @TempDir Path dir;

  /** Both semantics as the study's records carry them, and exactly-once as STORE_ROW's COPY rows (untriggered: no shuffle decodes them). */
  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({"STORAGE_API_AT_LEAST_ONCE, AVRO_GENERIC_RECORD, ''", "STORAGE_WRITE_API, AVRO_GENERIC_RECORD, ''",
      "STORAGE_WRITE_API, STORE_ROW, --triggeringFrequencySec=0"})
  void drainIntoPostgresLosesAndDuplicatesNothing(String writeMethod, String format, String more) throws Exception {
    String url = TestPostgres.freshSchemaUrl("bench_smoke");
    try {
      Path runDir = dir.resolve(writeMethod + "-" + format);
      var cl = Main.commandLine();
      cl.setOut(new PrintWriter(new StringWriter()));
      List<String> args = new ArrayList<>(List.of("run", "--runDir=" + runDir, "--parallelism=2", "--mode=drain",
          "--preload=" + EVENTS, "--preloadWarmup=" + WARMUP, "--store=postgres", "--jdbcUrl=" + url,
          "--writeMethod=" + writeMethod, "--formatToStore=" + format));
      if (!more.isEmpty()) args.add(more);
      int exit = cl.execute(args.toArray(String[]::new));
      JsonNode r = new ObjectMapper().readTree(runDir.resolve("results.json").toFile());
      JsonNode i = r.path("ingestion");
      JsonNode t = r.path("table");
      System.out.printf("bench smoke %s %s %s: %,d events, %.0f events/s, %.0f events per CPU-second, "
              + "%.1f MB/s per core, %,.0f heap bytes allocated per event, p99 %.0f ms, lost %d, duplicated %d%n",
          writeMethod, format, more, EVENTS, i.path("eventsPerSec").asDouble(),
          i.path("eventsPerSec").asDouble() * i.path("writingSeconds").asDouble() / i.path("cpuSeconds").asDouble(),
          i.path("megabytesPerSecPerIngestCore").asDouble(), i.path("allocatedBytesPerEvent").asDouble(),
          r.path("latencyMillis").path("p99").asDouble(),
          t.path("lost").asLong(), t.path("duplicated").asLong());
      assertEquals(0, exit, "exit code");
      assertEquals(EVENTS + WARMUP, t.path("expected").asLong(), t.toString());
      assertEquals(EVENTS, t.path("measuredRows").asLong(), t.toString());
      assertEquals(0, t.path("lost").asLong(), t.toString());
      assertEquals(0, t.path("duplicated").asLong(), t.toString());
      assertTrue(i.path("eventsPerSec").asDouble() > 0,
          "the measurement window saw no rows, so the figures above mean nothing: drain more (-Dbench.smoke.events)");
      // each event's payload alone is read into the heap twice (the consumer's fetch and the value's copy)
      assertTrue(i.path("allocatedBytesPerEvent").asDouble() > 2 * i.path("payloadBytes").asDouble() / EVENTS,
          "the ingestion's allocation was not counted: " + i);
      // the interval the CPU figure was read over (what thread-cpu --window cuts its samples to): from
      // the first measured row's write to the drain's end, so no shorter than the rows' writing time
      JsonNode cpuWindow = i.path("cpuWindowEpochMicros");
      assertEquals(2, cpuWindow.size(), i.toString());
      assertTrue((cpuWindow.get(1).asLong() - cpuWindow.get(0).asLong()) / 1e6 >= i.path("writingSeconds").asDouble(), i.toString());
      // results.json names the reader that ran (the one this drain measured), not the default's AUTO
      assertEquals("POLLED", r.path("configuration").path("kafkaReader").asText(), r.path("configuration").toString());
      // the server's checkpoints in the window come with the setting that spaces them
      JsonNode server = r.path("storeServer");
      assertTrue(server.path("checkpointsInWindow").asLong(-1) >= 0, "store server figures: " + server);
      assertTrue(server.path("settings").path("max_wal_size").asText().matches("\\d+[kMGT]?B"), server.toString());
    } finally {
      TestPostgres.drop(url);
    }
  }
}
