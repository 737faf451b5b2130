package io.streamlab.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code loadtest.csv}: one row per point and side with the original framework's columns (side,
 * clients, cores, message size, threads, msgs/s, MB/s, p50/p90/p99/p99.9) and streamlab's
 * correctness and cost columns after them. The publisher row's latency is the publish latency,
 * the subscriber row's the end-to-end latency, both from the intended send time.
 */
public final class CsvReport {
  static final String HEADER = "point,driver,side,clients,cores,message_size_bytes,threads,msgs_per_sec,mb_per_sec,"
      + "p50_ms,p90_ms,p99_ms,p99_9_ms,max_ms,published,received,missing,duplicates,errors,cpu_cores";

  private CsvReport() {}

  public static void write(Path file, List<PointResult> points) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    for (PointResult r : points) {
      LoadtestSettings s = r.settings();
      if (s.role().publishes()) {
        lines.add(row(r, "publisher", s.publishers(), r.publishMessagesPerSecond(), r.publishMegabytesPerSecond(),
            r.publishLatency()));
      }
      if (s.role().subscribes()) {
        lines.add(row(r, "subscriber", s.subscribers(), r.subscribeMessagesPerSecond(), r.subscribeMegabytesPerSecond(),
            r.endToEnd()));
      }
    }
    Files.write(file, lines);
  }

  private static String row(PointResult r, String side, int clients, double msgs, double mb, Percentiles p) {
    LoadtestSettings s = r.settings();
    return String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.0f,%d,%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%d,%d,%.2f",
        quote(r.label()), r.driver(), side, clients, s.cores(), s.messageSizes().mean(), s.publishingThreads(), msgs, mb,
        p.p50(), p.p90(), p.p99(), p.p999(), p.max(), r.published(), r.received(), r.missing(), r.duplicates(),
        r.publishErrors(), r.cpuCores());
  }

  private static String quote(String v) {
    return v.contains(",") || v.contains("\"") ? '"' + v.replace("\"", "\"\"") + '"' : v;
  }
}
