package io.streamlab.loadtest;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this process (publishers, subscribers and their client libraries; an embedded
 * broker runs in its own process and is not counted), so throughput can be given per core.
 */
final class CpuMeter {
  private static final com.sun.management.OperatingSystemMXBean OS =
      ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);

  private CpuMeter() {}

  static long processCpuNanos() {
    return OS == null ? 0 : Math.max(0, OS.getProcessCpuTime());
  }
}
