package io.streamlab.loadtest;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the live {@link LoadStats} into one {@link IntervalSample} per interval (rates since the
 * previous sample, the interval's latency histograms), prints it, keeps the time series, and
 * adds the histograms of measured intervals into the window's.
 */
final class IntervalSampler {
  private final LoadStats stats;
  private final boolean backlogKnown;
  private final PrintStream console;
  private final long startNanos = System.nanoTime();
  private final List<IntervalSample> samples = new ArrayList<>();
  private final LoadStats.Latencies window = LoadStats.Latencies.empty();
  private long lastNanos = startNanos;
  private long lastAcked, lastAckedBytes, lastReceived, lastReceivedBytes, lastErrors;
  private long lastCpu = CpuMeter.processCpuNanos();

  IntervalSampler(LoadStats stats, boolean backlogKnown, PrintStream console) {
    this.stats = stats;
    this.backlogKnown = backlogKnown;
    this.console = console;
  }

  /** Ends the current interval; its latencies count into the window when {@code measured}. */
  IntervalSample sample(String phase, boolean measured) {
    long now = System.nanoTime();
    long acked = stats.acked(), ackedBytes = stats.ackedBytes();
    long received = stats.received(), receivedBytes = stats.receivedBytes();
    long errors = stats.errors(), cpu = CpuMeter.processCpuNanos();
    LoadStats.Latencies latencies = stats.takeIntervalHistograms();
    if (measured) window.add(latencies);
    double secs = Math.max(1e-9, (now - lastNanos) / 1e9);
    IntervalSample s = new IntervalSample(phase, (now - startNanos) / 1e9,
        (acked - lastAcked) / secs, (ackedBytes - lastAckedBytes) / 1e6 / secs,
        (received - lastReceived) / secs, (receivedBytes - lastReceivedBytes) / 1e6 / secs,
        Percentiles.of(latencies.publish()), Percentiles.of(latencies.endToEnd()), errors - lastErrors,
        backlog(), (cpu - lastCpu) / 1e9 / secs);
    lastNanos = now;
    lastAcked = acked;
    lastAckedBytes = ackedBytes;
    lastReceived = received;
    lastReceivedBytes = receivedBytes;
    lastErrors = errors;
    lastCpu = cpu;
    samples.add(s);
    console.println(s.consoleLine());
    return s;
  }

  /** Acknowledged but not yet received (-1 when this process does not publish). */
  long backlog() {
    return backlogKnown ? Math.max(0, stats.acked() - stats.receivedDistinct()) : -1;
  }

  List<IntervalSample> samples() {
    return List.copyOf(samples);
  }

  LoadStats.Latencies window() {
    return window;
  }
}
