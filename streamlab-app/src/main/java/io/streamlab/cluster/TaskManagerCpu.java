package io.streamlab.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * CPU time of a cluster's TaskManager processes, the JVMs the pipeline's workers run in: user +
 * system time from /proc/&lt;pid&gt;/stat (ProcessHandle), pids from the cluster directory. The
 * JobManager (a coordinator, like Dataflow's service), the brokers, PostgreSQL and the streamlab
 * client are left out, as the study left BigQuery out. A TaskManager that was killed and started
 * again is a new pid: the old one keeps the last CPU time read before it died, so read often (the
 * run samples every second) and at most that interval of a killed worker's CPU is missing.
 */
public final class TaskManagerCpu implements Supplier<Duration> {
  private final ClusterState state;
  private final Map<Long, Duration> lastSeen = new HashMap<>();

  public TaskManagerCpu(ClusterState state) {
    this.state = state;
  }

  /** CPU time of every TaskManager process seen so far, dead ones included. */
  @Override
  public synchronized Duration get() {
    for (String m : state.members()) {
      if (!m.startsWith("taskmanager-")) continue;
      new MemberProcess(state, m).handle().ifPresent(h ->
          h.info().totalCpuDuration().ifPresent(cpu -> lastSeen.merge(h.pid(), cpu, (a, b) -> a.compareTo(b) >= 0 ? a : b)));
    }
    return lastSeen.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  /** The TaskManager pids seen so far. */
  public synchronized List<Long> pids() {
    return List.copyOf(lastSeen.keySet());
  }
}
