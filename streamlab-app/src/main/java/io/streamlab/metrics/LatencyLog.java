package io.streamlab.metrics;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/** Reads an HdrHistogram interval log (as written by the ingest status reporter). */
public final class LatencyLog {
  private LatencyLog() {}

  /** One logged interval: latencies (micros) of the rows written between its start and end. */
  public record Interval(long startMillis, long endMillis, Histogram histogram) {}

  /** Every interval in the log, in order; empty if the log is missing. */
  public static List<Interval> intervals(Path file) throws FileNotFoundException {
    List<Interval> all = new ArrayList<>();
    if (!Files.exists(file)) return all;
    HistogramLogReader reader = new HistogramLogReader(file.toFile());
    for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
      all.add(new Interval(h.getStartTimeStamp(), h.getEndTimeStamp(), (Histogram) h));
    }
    reader.close();
    return all;
  }

  /**
   * The intervals that started at or after {@code fromEpochMillis}, added up; an empty histogram
   * if the log is missing or empty.
   */
  public static Histogram read(Path file, long fromEpochMillis) throws FileNotFoundException {
    return read(file, fromEpochMillis, Long.MAX_VALUE);
  }

  /** The intervals that started in [{@code fromEpochMillis}, {@code toEpochMillis}), added up. */
  public static Histogram read(Path file, long fromEpochMillis, long toEpochMillis) throws FileNotFoundException {
    Histogram total = new Histogram(3_600_000_000L, 3);
    for (Interval i : intervals(file)) {
      if (i.startMillis() >= fromEpochMillis && i.startMillis() < toEpochMillis) total.add(i.histogram());
    }
    return total;
  }
}
