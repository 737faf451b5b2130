package io.streamlab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.formats.ThriftBinaryCodec;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sink figures for the DuckDB Arrow append path: rows/s and MB/s by batch size and number of
 * concurrent writers ({@code -Dbench.rows}, {@code -Dbench.batch}, {@code -Dbench.writers} pick one
 * case). Prints figures; asserts only that every row arrived.
 */
class DuckDbAppendBenchmark {
  @TempDir Path dir;

  @Test
  void appendThroughputByBatchSizeAndWriters() throws Exception {
    Schema event = SchemaLoader.loadDefault();
    Schema row = SystemColumns.tableRecordSchema(event);
    RandomRecordFactory f = new RandomRecordFactory(event, GeneratorSettings.builder().build(), 1);
    ThriftBinaryCodec codec = new ThriftBinaryCodec(event);
    int total = Integer.getInteger("bench.rows", 100_000);
    List<GenericRecord> rows = new ArrayList<>(total);
    long bytes = 0;
    for (int i = 0; i < total; i++) {
      GenericRecord e = f.next();
      bytes += codec.encode(e).length;
      GenericData.Record r = new GenericData.Record(row);
      for (int k = 0; k < event.getFields().size(); k++) r.put(k, e.get(k));
      r.put(SystemColumns.PRODUCER_ID, 0);
      r.put(SystemColumns.SEQUENCE, (long) i);
      r.put(SystemColumns.SEND_TIME_MICROS, 0L);
      rows.add(r);
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    String setting = System.getProperty("bench.sql", ""); // e.g. SET force_compression='uncompressed'
    for (int writers : Integer.getInteger("bench.writers", 0) > 0 ? new int[] {Integer.getInteger("bench.writers")}
        : new int[] {1, 2}) {
      for (int batch : Integer.getInteger("bench.batch", 0) > 0 ? new int[] {Integer.getInteger("bench.batch")}
          : new int[] {1_000, 5_000, 20_000, 50_000, 131_072}) {
        Path file = dir.resolve("bench-" + writers + "-" + batch + ".duckdb");
        StoreSpec spec = StoreSpec.duckdb(file);
        try (TableStore store = spec.open()) {
          store.createTableIfMissing("events", row);
          if (!setting.isEmpty()) {
            try (var c = store.openQueryConnection(); var st = c.createStatement()) {
              st.execute(setting);
            }
          }
          long start = System.nanoTime();
          long cpuStart = os.getProcessCpuTime();
          List<Thread> threads = new ArrayList<>();
          for (int w = 0; w < writers; w++) {
            int from = w * total / writers, to = (w + 1) * total / writers;
            Thread t = new Thread(() -> {
              try (TableWriter writer = store.openWriter("events", row)) {
                for (int i = from; i < to; i += batch) writer.append(rows.subList(i, Math.min(to, i + batch)));
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
            threads.add(t);
            t.start();
          }
          for (Thread t : threads) t.join();
          double secs = (System.nanoTime() - start) / 1e9;
          double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
          System.out.printf("BENCH duckdb-arrow writers=%d batch=%,d: %,.0f rows/s, %.1f MB/s (Thrift payload bytes), "
              + "%.1f CPU-s -> %.1f MB/s per core (before the file is compacted)%n",
              writers, batch, total / secs, bytes / 1e6 / secs, cpu, bytes / 1e6 / cpu);
          try (var c = store.openQueryConnection(); ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM events")) {
            rs.next();
            assertEquals(total, rs.getLong(1));
          }
          // Where the rows went: DuckDB writes a transaction of more than a row group (122,880
          // rows) into the table file as compressed row groups, a smaller one into the log.
          Path wal = dir.resolve(file.getFileName() + ".wal");
          System.out.printf("BENCH   before the checkpoint: log %,d bytes, table file %,d bytes%n",
              Files.exists(wal) ? Files.size(wal) : 0, Files.size(file));
          // The appends went to the write-ahead log; compacting them into the table file is the
          // rest of the work (deferred while the WAL is under 2 GB, see DuckDbStore).
          long cpCpu = os.getProcessCpuTime(), cpStart = System.nanoTime();
          try (var c = store.openQueryConnection(); var st = c.createStatement()) {
            st.execute("CHECKPOINT");
          }
          double cp = (os.getProcessCpuTime() - cpCpu) / 1e9;
          System.out.printf("BENCH   checkpoint: %.1f s, %.1f CPU-s -> with it %.1f MB/s per core%n",
              (System.nanoTime() - cpStart) / 1e9, cp, bytes / 1e6 / (cpu + cp));
        }
      }
    }
  }
}
