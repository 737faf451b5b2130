package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Takes a {@link Sample} of the run each time the ingestion reports its counters (once a status
 * interval, a second in a run), on its own thread, for the time series and the live lines.
 *
 * <p>The generator's count is taken when a report comes, not when a sample is due: the
 * ingestion's counters are as old as its last report, and a backlog of a report up to a second
 * old and a count of now holds a second of events that are already in the table (at 10,000
 * events/s, a "backlog" of up to 10,000 in a pipeline 60 ms behind).
 */
final class Sampler implements AutoCloseable {
  /** How often the thread looks for a new report: the most a count can be late against its report. */
  static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /** Where counters are read on demand (no reports), a sample is taken this often. */
  static final long ON_DEMAND_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** Where reports stop coming (an ingestion restarting, or stalled), a sample is still taken this often. */
  static final long UNREPORTED_NANOS = TimeUnit.SECONDS.toNanos(3);

  /**
   * An ingestion report and the generator's count when it came: counts of one moment.
   *
   * @param generated events the broker acknowledged to the generator, all phases
   * @param nanos when the report came ({@link System#nanoTime})
   */
  record Counts(IngestStatus status, long generated, long nanos) {
    /** Events through the pipeline ({@link IngestStatus#done}). */
    long ingested() {
      return status.done();
    }

    long backlog() {
      return Math.max(0, generated - ingested());
    }
  }

  private final List<Sample> samples = new ArrayList<>();
  private final Supplier<IngestStatus> ingest;
  private final LongSupplier reports;
  private final Supplier<Double> cpuSeconds;
  private final LongSupplier generated;
  private final long startNanos = System.nanoTime();
  private final Thread thread;
  private volatile String phase = "start-up";
  private volatile boolean running = true;
  private volatile Counts latest;
  private long reportsSeen = Long.MIN_VALUE;

  /**
   * @param reports how many reports have come so far ({@link Ingestion#statusReports}); -1 where
   *     the counters are read on demand
   */
  Sampler(Supplier<IngestStatus> ingest, LongSupplier reports, Supplier<Double> cpuSeconds, LongSupplier generated) {
    this(ingest, reports, cpuSeconds, generated, true);
  }

  /** @param threaded false: no thread, {@link #poll} is called by the caller (tests) */
  Sampler(Supplier<IngestStatus> ingest, LongSupplier reports, Supplier<Double> cpuSeconds, LongSupplier generated,
      boolean threaded) {
    this.ingest = ingest;
    this.reports = reports;
    this.cpuSeconds = cpuSeconds;
    this.generated = generated;
    latest = new Counts(ingest.get(), generated.getAsLong(), startNanos);
    thread = new Thread(this::loop, "streamlab-sampler");
    thread.setDaemon(true);
    if (threaded) thread.start();
  }

  void phase(String name) {
    phase = name;
  }

  /** The newest report and the generator's count when it came. */
  Counts latest() {
    return latest;
  }

  private void loop() {
    while (running) {
      try {
        TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
      } catch (InterruptedException e) {
        return;
      }
      poll(System.nanoTime());
    }
  }

  /**
   * Takes a sample if a report has come since the last one (or none has for {@link
   * #UNREPORTED_NANOS}), or, where counters are read on demand, once every {@link #ON_DEMAND_NANOS}.
   */
  void poll(long nowNanos) {
    long r = reports.getAsLong();
    long since = nowNanos - latest.nanos();
    boolean due = r < 0 ? since >= ON_DEMAND_NANOS : r != reportsSeen || since >= UNREPORTED_NANOS;
    if (!due) return;
    reportsSeen = r;
    // the count right after the report is read: the report is no newer than it
    IngestStatus s = ingest.get();
    Counts c = new Counts(s, generated.getAsLong(), nowNanos);
    latest = c;
    Sample sample = new Sample(System.currentTimeMillis(), (nowNanos - startNanos) / 1e9, phase,
        c.generated(), c.ingested(), s.bytesRead(), cpuSeconds.get(), s.heapPeakBytes(), s.stages(), s.write());
    synchronized (samples) {
      samples.add(sample);
    }
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
