package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drain of a preloaded backlog, Kafka -> embedded Flink -> DuckDB, ~1.1 KB Thrift events, for each
 * write method x formatToStore: MB/s per ingestion core (payload bytes / CPU seconds of the
 * ingestion process while it drained, start-up excluded), MB/s, shuffled bytes per byte read, and
 * p99 latency. The backlog is generated before ingestion starts, so the generator does not share
 * the cores. Latency is from each event's intended send time, so for a backlog it mostly measures
 * how long the event waited in the backlog; the p99 of a live run comes from {@code streamlab run}.
 * Run: {@code mvn -o -pl streamlab-app test -Dtest=WriteMethodBenchmark -Dbench.events=300000
 * [-Dbench.only=storage_write_api] [-Dbench.out=figures.txt]}.
 */
class WriteMethodBenchmark {
  @TempDir Path dir;

  @Test
  void drainBacklogPerWriteMethodAndFormat() throws Exception {
    int events = Integer.getInteger("bench.events", 200_000);
    String only = System.getProperty("bench.only", "");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      Topics.create(kafka.bootstrapServers(), "backlog", 4);
      GeneratorStats gen = new EventGenerator(new EventGenerator.Config(kafka.bootstrapServers(), "backlog",
          SchemaLoader.loadDefault(), TransportFormat.THRIFT, GeneratorSettings.builder().build(), 1, 2, 0, 0, events,
          null, Map.of())).run();
      assertEquals(events, gen.acked());
      System.out.printf("backlog: %,d events, %.1f MB (%.0f B/event)%n", events, gen.bytes() / 1e6,
          (double) gen.bytes() / events);
      List<String> lines = new ArrayList<>();
      for (WriteMethod m : WriteMethod.values()) {
        for (FormatToStore f : FormatToStore.values()) {
          String name = m.name().toLowerCase() + "_" + f.name().toLowerCase();
          if (!only.isEmpty() && !name.contains(only.toLowerCase())) continue;
          String line = drain(kafka.bootstrapServers(), m, f, name, events, gen.sequencesPerProducer());
          System.out.println(line);
          lines.add(line);
          // also to a file as each figure comes (surefire shows test output only at the end)
          String outFile = System.getProperty("bench.out");
          if (outFile != null) {
            Files.writeString(Path.of(outFile), line + "  [load " + Files.readString(Path.of("/proc/loadavg")).trim()
                + "]" + System.lineSeparator(), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
          }
        }
      }
      System.out.println("---- WriteMethodBenchmark (" + events + " events; load: "
          + Files.readString(Path.of("/proc/loadavg")).trim() + ") ----");
      lines.forEach(System.out::println);
    }
  }

  private String drain(String bootstrap, WriteMethod m, FormatToStore f, String table, int events,
      Map<Integer, Long> sent) throws Exception {
    Path db = dir.resolve(table + ".duckdb");
    List<String> args = List.of("ingest", "--bootstrapServers=" + bootstrap, "--topic=backlog", "--db=" + db,
        "--table=" + table, "--writeMethod=" + m, "--formatToStore=" + f, "--parallelism=2",
        "--statusIntervalMs=200", "--stopOnStdinClose");
    IngestStatus start, end;
    Duration cpuStart, cpuEnd;
    long t0, t1;
    try (IngestProcess ingest = new IngestProcess(args, dir.resolve(table + ".log"))) {
      ingest.awaitReady(Duration.ofMinutes(3), dir.resolve(table + ".log"));
      while (ingest.status().rowsWritten() == 0) Thread.sleep(20);
      start = ingest.status();
      cpuStart = ingest.cpuTime();
      t0 = System.nanoTime();
      long lastChange = System.nanoTime(), last = -1;
      while (ingest.status().rowsWritten() + ingest.status().failed() < events) {
        long now = ingest.status().rowsWritten();
        if (now != last) {
          last = now;
          lastChange = System.nanoTime();
        } else if (System.nanoTime() - lastChange > 60_000_000_000L) {
          break;
        }
        Thread.sleep(20);
      }
      end = ingest.status();
      cpuEnd = ingest.cpuTime();
      t1 = System.nanoTime();
    }
    Verification v;
    try (TableStore s = StoreSpec.duckdb(db).open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, table, sent, java.util.Set.of());
    }
    double bytes = end.bytesRead() - start.bytesRead();
    double cpu = (cpuEnd.toNanos() - cpuStart.toNanos()) / 1e9;
    double secs = (t1 - t0) / 1e9;
    return String.format("%-26s %-20s %7.1f MB/s per core | %6.1f MB/s | %7.0f events/s | shuffled/read %.2f | "
            + "p99 %6.0f ms | lost %d dup %d", m, f, bytes / 1e6 / cpu, bytes / 1e6 / secs,
        (end.rowsWritten() - start.rowsWritten()) / secs, (end.bytesShuffled() - start.bytesShuffled()) / Math.max(1, bytes),
        end.p99Micros() / 1e3, v.lost(), v.duplicated());
  }
}
