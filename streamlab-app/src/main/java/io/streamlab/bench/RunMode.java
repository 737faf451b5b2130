package io.streamlab.bench;

/** How a run loads the pipeline and what its measurement window is. */
public enum RunMode {
  /** The generator runs at --ratePerSec while ingestion keeps up (or not): latency is meaningful. */
  STEADY,
  /**
   * A backlog is preloaded while ingestion is stopped, then ingestion drains it alone: the
   * pipeline's own throughput, with no generator sharing the cores. Latency is backlog age.
   */
  DRAIN,
  /** Steps of rising rate, searching the highest one at which backlog and p99 stay bounded. */
  MAX
}
