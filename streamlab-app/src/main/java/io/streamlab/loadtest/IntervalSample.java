package io.streamlab.loadtest;

/**
 * The figures of one reporting interval (one console line, one point of the time series).
 *
 * @param phase backlog, drain, burn-in, window or final
 * @param elapsedSeconds since the run started, at the end of the interval
 * @param publishLatency acknowledgement time minus intended send time
 * @param endToEnd receive time minus intended send time
 * @param backlog acknowledged but not yet received, at the end of the interval (-1 = unknown)
 * @param cpuCores CPU seconds this process used per second of the interval
 */
public record IntervalSample(String phase, double elapsedSeconds, double publishMessagesPerSecond,
    double publishMegabytesPerSecond, double subscribeMessagesPerSecond, double subscribeMegabytesPerSecond,
    Percentiles publishLatency, Percentiles endToEnd, long publishErrors, long backlog, double cpuCores) {

  public String consoleLine() {
    return String.format("[%5.1fs %-7s] pub %,9.0f msg/s %7.2f MB/s (%s) | sub %,9.0f msg/s %7.2f MB/s (e2e %s)"
            + " | backlog %s | errors %d | cpu %.2f cores",
        elapsedSeconds, phase, publishMessagesPerSecond, publishMegabytesPerSecond, publishLatency.brief(),
        subscribeMessagesPerSecond, subscribeMegabytesPerSecond, endToEnd.brief(),
        backlog < 0 ? "n/a" : String.format("%,d", backlog), publishErrors, cpuCores);
  }
}
