package io.streamlab.bench;

import io.streamlab.pipeline.IngestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Takes a {@link Sample} of the run every second on its own thread, for the time series. */
final class Sampler implements AutoCloseable {
  private final List<Sample> samples = new ArrayList<>();
  private final Supplier<IngestStatus> ingest;
  private final Supplier<Double> cpuSeconds;
  private final LongSupplier generated;
  private final long startNanos = System.nanoTime();
  private final Thread thread;
  private volatile String phase = "start-up";
  private volatile boolean running = true;

  Sampler(Supplier<IngestStatus> ingest, Supplier<Double> cpuSeconds, LongSupplier generated) {
    this.ingest = ingest;
    this.cpuSeconds = cpuSeconds;
    this.generated = generated;
    thread = new Thread(this::loop, "streamlab-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  void phase(String name) {
    phase = name;
  }

  private void loop() {
    long next = startNanos;
    while (running) {
      next += 1_000_000_000L;
      long wait = next - System.nanoTime();
      try {
        if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        return;
      }
      take();
    }
  }

  private void take() {
    IngestStatus s = ingest.get();
    Sample sample = new Sample(System.currentTimeMillis(), (System.nanoTime() - startNanos) / 1e9, phase,
        generated.getAsLong(), s.rowsWritten() + s.failed(), s.bytesRead(), cpuSeconds.get(), s.heapPeakBytes(),
        s.stages(), s.write());
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
