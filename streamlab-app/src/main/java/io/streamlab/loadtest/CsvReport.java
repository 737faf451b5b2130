package io.streamlab.loadtest;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.streamlab.report.ReportFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code loadtest.csv}: one row per point and side with the original framework's columns (side,
 * clients, cores, message size, threads, msgs/s, MB/s, p50/p90/p99/p99.9) and streamlab's
 * correctness and cost columns after them. The publisher row's latency is the publish latency,
 * the subscriber row's the end-to-end latency, both from the intended send time.
 */
public final class CsvReport {
  private CsvReport() {}

  /** One line of loadtest.csv; the column names are the original framework's. */
  record Row(String point, String driver, String side, int clients, int cores,
      @JsonProperty("message_size_bytes") long messageSizeBytes, int threads,
      @JsonProperty("msgs_per_sec") double msgsPerSec, @JsonProperty("mb_per_sec") double mbPerSec,
      @JsonProperty("p50_ms") double p50Ms, @JsonProperty("p90_ms") double p90Ms, @JsonProperty("p99_ms") double p99Ms,
      @JsonProperty("p99_9_ms") double p999Ms, @JsonProperty("max_ms") double maxMs, long published, long received,
      long missing, long duplicates, long errors, @JsonProperty("cpu_cores") double cpuCores) {

    static Row of(PointResult r, String side, int clients, double msgs, double mb, Percentiles p) {
      LoadtestSettings s = r.settings();
      return new Row(r.label(), r.driver(), side, clients, s.cores(), Math.round(s.messageSizes().mean()),
          s.publishingThreads(), ReportFiles.round(msgs, 1), ReportFiles.round(mb, 3), ReportFiles.round(p.p50(), 2),
          ReportFiles.round(p.p90(), 2), ReportFiles.round(p.p99(), 2), ReportFiles.round(p.p999(), 2),
          ReportFiles.round(p.max(), 2), r.published(), r.received(), r.missing(), r.duplicates(), r.publishErrors(),
          ReportFiles.round(r.cpuCores(), 2));
    }
  }

  public static void write(Path file, List<PointResult> points) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (PointResult r : points) {
      LoadtestSettings s = r.settings();
      if (s.role().publishes()) {
        rows.add(Row.of(r, "publisher", s.publishers(), r.publishMessagesPerSecond(), r.publishMegabytesPerSecond(),
            r.publishLatency()));
      }
      if (s.role().subscribes()) {
        rows.add(Row.of(r, "subscriber", s.subscribers(), r.subscribeMessagesPerSecond(), r.subscribeMegabytesPerSecond(),
            r.endToEnd()));
      }
    }
    ReportFiles.writeCsv(file, Row.class, rows);
  }
}
