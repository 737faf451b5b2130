package io.streamlab.metrics;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/** Reads an HdrHistogram interval log (as written by the ingest status reporter) into one histogram. */
public final class LatencyLog {
  private LatencyLog() {}

  /**
   * The intervals that started at or after {@code fromEpochMillis}, added up; an empty histogram
   * if the log is missing or empty.
   */
  public static Histogram read(Path file, long fromEpochMillis) throws FileNotFoundException {
    Histogram total = new Histogram(3_600_000_000L, 3);
    if (!Files.exists(file)) return total;
    HistogramLogReader reader = new HistogramLogReader(file.toFile());
    for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
      if (h.getStartTimeStamp() >= fromEpochMillis) total.add((Histogram) h);
    }
    reader.close();
    return total;
  }
}
