package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** The live console line of a run: rates since the last line, totals, backlog, p99 so far. */
final class Progress {
  private final PrintStream out;
  private final LongSupplier acked;
  private final Supplier<IngestStatus> ingest;
  private final long startNanos = System.nanoTime();
  private final long ingestedBefore;
  private long lastNanos = startNanos, lastAcked, lastWritten;

  /**
   * @param acked events of this phase the broker acknowledged so far
   * @param ingestedBefore rows ingested before this phase (earlier phases' events)
   */
  Progress(PrintStream out, LongSupplier acked, Supplier<IngestStatus> ingest, long ingestedBefore) {
    this.out = out;
    this.acked = acked;
    this.ingest = ingest;
    this.ingestedBefore = ingestedBefore;
    this.lastWritten = ingestedBefore;
  }

  void print(String phase) {
    long now = System.nanoTime();
    IngestStatus s = ingest.get();
    long acked = this.acked.getAsLong();
    long written = s.rowsWritten() + s.failed();
    long phaseWritten = written - ingestedBefore;
    double secs = Math.max(1e-9, (now - lastNanos) / 1e9);
    out.printf("[%4.0fs %-13s] generated %,9.0f/s (%,d) | ingested %,9.0f/s (%,d) | backlog %,d | p99 %s"
            + " | read %,.0f MB, shuffled %,.0f MB%s%n",
        (now - startNanos) / 1e9, phase, (acked - lastAcked) / secs, acked,
        (written - lastWritten) / secs, phaseWritten, Math.max(0, acked - phaseWritten),
        s.p99Micros() == IngestStatus.UNKNOWN ? "n/a" : String.format("%,.0f ms", s.p99Micros() / 1e3),
        s.bytesRead() / 1e6, s.bytesShuffled() / 1e6,
        s.failed() > 0 ? String.format(" | dead-lettered %,d", s.failed()) : "");
    lastNanos = now;
    lastAcked = acked;
    lastWritten = written;
  }
}
