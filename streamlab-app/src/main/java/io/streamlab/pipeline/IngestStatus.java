package io.streamlab.pipeline;

import java.util.HashMap;
import java.util.Map;

/**
 * One status line of a running ingestion, printed to stdout by {@code streamlab ingest} and read
 * by {@code streamlab run}, which starts ingestion as a separate process (so its CPU time can be
 * measured alone, and it can be killed and restarted).
 */
/** @param bytesShuffled bytes the write stage's shuffle serialized (0 without a shuffle) */
public record IngestStatus(boolean ready, long eventsRead, long bytesRead, long rowsWritten,
    long failed, long p99Micros, long bytesShuffled) {
  public static final String PREFIX = "STREAMLAB-STATUS ";

  public static IngestStatus current(long p99Micros) {
    IngestMetrics m = IngestMetrics.get();
    return new IngestStatus(m.ready(), m.eventsRead(), m.bytesRead(), m.rowsWritten(),
        m.failedTotal(), p99Micros, m.bytesShuffled());
  }

  /** The totals of two ingestion processes, one after the other (a killed one and its restart). */
  public IngestStatus plus(IngestStatus o) {
    return new IngestStatus(o.ready, eventsRead + o.eventsRead, bytesRead + o.bytesRead, rowsWritten + o.rowsWritten,
        failed + o.failed, o.p99Micros, bytesShuffled + o.bytesShuffled);
  }

  public String format() {
    return PREFIX + "ready=" + (ready ? 1 : 0) + " read=" + eventsRead + " bytes=" + bytesRead
        + " written=" + rowsWritten + " failed=" + failed + " p99us=" + p99Micros
        + " shuffled=" + bytesShuffled;
  }

  /** @return the status, or null if the line is not a status line */
  public static IngestStatus parse(String line) {
    if (!line.startsWith(PREFIX)) return null;
    Map<String, Long> v = new HashMap<>();
    for (String kv : line.substring(PREFIX.length()).trim().split(" ")) {
      int eq = kv.indexOf('=');
      if (eq > 0) v.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
    }
    return new IngestStatus(v.getOrDefault("ready", 0L) == 1, v.getOrDefault("read", 0L),
        v.getOrDefault("bytes", 0L), v.getOrDefault("written", 0L), v.getOrDefault("failed", 0L),
        v.getOrDefault("p99us", 0L), v.getOrDefault("shuffled", 0L));
  }
}
