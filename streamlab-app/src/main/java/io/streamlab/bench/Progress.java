package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The live console line of a run: rates since the last line, totals, backlog, p99 so far. Rates
 * and backlog come from {@link Sampler.Counts}, the ingestion's newest report and the generator's
 * count when it came, so they compare counts of one moment.
 */
final class Progress {
  private final PrintStream out;
  private final LongSupplier acked;
  private final Supplier<Sampler.Counts> counts;
  private final long startNanos = System.nanoTime();
  private final long ingestedBefore;
  private Sampler.Counts last;

  /**
   * @param acked events of this phase the broker acknowledged so far
   * @param counts the newest report and the generator's count with it ({@link Sampler#latest})
   * @param ingestedBefore rows ingested before this phase (earlier phases' events)
   */
  Progress(PrintStream out, LongSupplier acked, Supplier<Sampler.Counts> counts, long ingestedBefore) {
    this.out = out;
    this.acked = acked;
    this.counts = counts;
    this.ingestedBefore = ingestedBefore;
    this.last = counts.get();
  }

  void print(String phase) {
    Sampler.Counts c = counts.get();
    IngestStatus s = c.status();
    double secs = (c.nanos() - last.nanos()) / 1e9;
    out.printf("[%4.0fs %-13s] generated %,9.0f/s (%,d) | ingested %,9.0f/s (%,d) | backlog %,d | p99 %s"
            + " | read %,.0f MB, shuffled %,.0f MB%s%n",
        (System.nanoTime() - startNanos) / 1e9, phase, Rates.perSecond(c.generated() - last.generated(), secs),
        acked.getAsLong(), Rates.perSecond(c.ingested() - last.ingested(), secs), c.ingested() - ingestedBefore,
        c.backlog(), s.p99Micros() == IngestStatus.UNKNOWN ? "n/a" : String.format("%,.0f ms", s.p99Micros() / 1e3),
        s.bytesRead() / 1e6, s.bytesShuffled() / 1e6,
        s.failed() > 0 ? String.format(" | dead-lettered %,d", s.failed()) : "");
    last = c;
  }
}
