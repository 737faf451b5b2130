package io.streamlab.loadtest;

import java.util.List;

/**
 * The figures of one load-test point. Rates are over the measurement window; counts are over the
 * whole run (backlog phase and burn-in included), taken after the final drain.
 *
 * @param published messages acknowledged by the broker, whole run
 * @param received messages delivered to subscribers, repeats included, whole run
 * @param receivedDistinct distinct producer id + sequence received
 * @param missing acknowledged but never received (subscribe-only runs: sequence gaps)
 * @param unstamped messages received without a streamlab stamp (not from a load test)
 * @param backlogAtWindowStart acknowledged minus received when the window opened (-1 unknown)
 * @param backlogAtWindowEnd the same when it closed: growth over the window means the
 *     subscribers do not keep up
 * @param backlogDrain the backlog build-then-drain phase, or null when not run
 * @param cpuSeconds CPU time of this process during the window
 */
public record PointResult(String label, String driver, LoadtestSettings settings, double windowSeconds,
    double publishMessagesPerSecond, double publishMegabytesPerSecond, double subscribeMessagesPerSecond,
    double subscribeMegabytesPerSecond, Percentiles publishLatency, Percentiles publishDelay, Percentiles endToEnd,
    long handedToClient, long published, long publishErrors, String firstError, long received, long receivedDistinct,
    long missing, long duplicates, long unstamped, long backlogAtWindowStart, long backlogAtWindowEnd, BacklogDrain backlogDrain,
    double cpuSeconds, List<IntervalSample> samples) {

  /**
   * @param messages backlog when the subscribers started
   * @param seconds until they had received all of it
   * @param complete false when the drain timed out
   */
  public record BacklogDrain(long messages, long bytes, double seconds, boolean complete) {
    public double messagesPerSecond() {
      return seconds > 0 ? messages / seconds : 0;
    }

    public double megabytesPerSecond() {
      return seconds > 0 ? bytes / 1e6 / seconds : 0;
    }
  }

  public double cpuCores() {
    return windowSeconds > 0 ? cpuSeconds / windowSeconds : 0;
  }

  /** Publish + subscribe MB per CPU-second of this process (the client side's cost). */
  public double megabytesPerSecondPerCore() {
    return cpuSeconds > 0
        ? (publishMegabytesPerSecond + subscribeMegabytesPerSecond) * windowSeconds / cpuSeconds : 0;
  }

  public String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%s [%s, %s, %s msgs, %d pub x %d threads, %d sub, rate %s]%n", label, driver,
        settings.role().name().toLowerCase(), settings.messageSizes(), settings.publishers(),
        settings.publishingThreads(), settings.subscribers(),
        settings.ratePerSec() == 0 ? "unlimited" : String.format("%,.0f/s", settings.ratePerSec())));
    if (settings.role().publishes()) {
      sb.append(String.format("  publish    %,10.0f msg/s %8.2f MB/s | latency p50 %.1f p95 %.1f p99 %.1f p99.9 %.1f max %.1f ms"
              + " | behind schedule p99 %.1f max %.1f ms%n", publishMessagesPerSecond, publishMegabytesPerSecond,
          publishLatency.p50(), publishLatency.p95(), publishLatency.p99(), publishLatency.p999(), publishLatency.max(),
          publishDelay.p99(), publishDelay.max()));
    }
    if (settings.role().subscribes()) {
      sb.append(String.format("  subscribe  %,10.0f msg/s %8.2f MB/s | end-to-end p50 %.1f p95 %.1f p99 %.1f p99.9 %.1f max %.1f ms%n",
          subscribeMessagesPerSecond, subscribeMegabytesPerSecond, endToEnd.p50(), endToEnd.p95(), endToEnd.p99(),
          endToEnd.p999(), endToEnd.max()));
    }
    if (backlogDrain != null) {
      sb.append(String.format("  backlog    %,d msgs drained in %.1f s: %,.0f msg/s %.2f MB/s%s%n", backlogDrain.messages(),
          backlogDrain.seconds(), backlogDrain.messagesPerSecond(), backlogDrain.megabytesPerSecond(),
          backlogDrain.complete() ? "" : " (TIMED OUT)"));
    }
    sb.append(String.format("  counts     published %,d (handed to client %,d, errors %,d) | received %,d (distinct %,d)"
            + " | missing %,d | duplicates %,d%s | backlog window start %s end %s%n", published, handedToClient,
        publishErrors, received, receivedDistinct, missing, duplicates,
        unstamped == 0 ? "" : String.format(" | without stamp %,d", unstamped), backlog(backlogAtWindowStart),
        backlog(backlogAtWindowEnd)));
    sb.append(String.format("  cpu        %.1f CPU-s in %.1f s window = %.2f cores; %.1f MB/s per core (this process)%n",
        cpuSeconds, windowSeconds, cpuCores(), megabytesPerSecondPerCore()));
    if (firstError != null) sb.append("  first error: ").append(firstError).append('\n');
    return sb.toString();
  }

  private static String backlog(long b) {
    return b < 0 ? "n/a" : String.format("%,d", b);
  }
}
