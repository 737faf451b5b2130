package io.streamlab.bench;

import io.streamlab.cluster.LocalCluster;
import io.streamlab.cluster.LocalPostgres;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A fault {@code --chaos} injects into the cluster of {@code streamlab cluster up}, or (restart-postgres)
 * into this machine's PostgreSQL, which an embedded run with {@code --store=postgres} may use too.
 */
public enum ClusterFault {
  KILL_TASKMANAGER("kill-taskmanager"), KILL_BROKER("kill-broker"), RESTART_POSTGRES("restart-postgres");

  /** How long a killed member stays dead before it is started again. */
  static final Duration DOWN_FOR = Duration.ofSeconds(3);

  private final String flag;

  ClusterFault(String flag) {
    this.flag = flag;
  }

  static Optional<ClusterFault> named(String flag) {
    return Arrays.stream(values()).filter(f -> f.flag.equals(flag)).findFirst();
  }

  /** True for faults that hit a member of {@code streamlab cluster up} (restart-postgres needs only the local server). */
  boolean needsCluster() {
    return this != RESTART_POSTGRES;
  }

  /** @param clusterDir the cluster's directory (null without --cluster: only restart-postgres) */
  String inject(Path clusterDir) throws Exception {
    return switch (this) {
      case KILL_TASKMANAGER -> LocalCluster.open(clusterDir).killAndRestartTaskManager(DOWN_FOR);
      case KILL_BROKER -> LocalCluster.open(clusterDir).killAndRestartBroker(DOWN_FOR);
      case RESTART_POSTGRES -> {
        long t0 = System.nanoTime();
        LocalPostgres.restart();
        yield String.format("PostgreSQL restarted (serving again after %.1f s)", (System.nanoTime() - t0) / 1e9);
      }
    };
  }

  /**
   * Injects the i-th of n faults at (i+1)/(n+1) of the window, each on a thread of its own (a
   * restart that takes long does not push the next fault out of the window); join the returned
   * thread before draining. A fault that cannot be injected fails the run.
   */
  static Thread schedule(List<ClusterFault> faults, Path clusterDir, Duration window, PrintStream out, Throwable[] failure) {
    long start = System.nanoTime();
    Thread all = new Thread(() -> {
      List<Thread> threads = new java.util.ArrayList<>();
      for (int i = 0; i < faults.size(); i++) {
        ClusterFault fault = faults.get(i);
        long at = start + window.toNanos() * (i + 1) / (faults.size() + 1);
        Thread t = new Thread(() -> {
          try {
            long wait = (at - System.nanoTime()) / 1_000_000;
            if (wait > 0) Thread.sleep(wait);
            out.printf("[streamlab] measure: chaos: %s%n", fault.flag);
            out.printf("[streamlab] measure: chaos: %s%n", fault.inject(clusterDir));
          } catch (Throwable e) {
            failure[0] = e;
          }
        }, "fault-" + fault.flag);
        t.start();
        threads.add(t);
      }
      for (Thread t : threads) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }, "cluster-faults");
    all.start();
    return all;
  }
}
