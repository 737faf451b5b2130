package io.streamlab.report;

import java.lang.management.ManagementFactory;

/** The facts of this machine a result needs to be read correctly later. */
final class MachineFacts {
  private MachineFacts() {}

  static Results.Machine collect() {
    Long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getTotalMemorySize() : null;
    return new Results.Machine(Runtime.getRuntime().availableProcessors(), memory,
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
