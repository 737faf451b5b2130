package io.streamlab.bench;

import io.streamlab.cluster.LocalCluster;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** A fault {@code --chaos} injects into the cluster of {@code streamlab cluster up}. */
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

  String inject(LocalCluster cluster) throws Exception {
    return switch (this) {
      case KILL_TASKMANAGER -> cluster.killAndRestartTaskManager(DOWN_FOR);
      case KILL_BROKER -> cluster.killAndRestartBroker(DOWN_FOR);
      case RESTART_POSTGRES -> cluster.restartPostgres();
    };
  }

  /**
   * Injects the faults one after the other, the i-th of n at (i+1)/(n+1) of the window, on a thread
   * of its own; join it before draining. A fault that cannot be injected fails the run.
   */
  static Thread schedule(List<ClusterFault> faults, Path clusterDir, Duration window, PrintStream out, Throwable[] failure) {
    Thread t = new Thread(() -> {
      try {
        LocalCluster cluster = LocalCluster.open(clusterDir);
        long start = System.nanoTime();
        for (int i = 0; i < faults.size(); i++) {
          long at = start + window.toNanos() * (i + 1) / (faults.size() + 1);
          long wait = (at - System.nanoTime()) / 1_000_000;
          if (wait > 0) Thread.sleep(wait);
          out.printf("[streamlab] measure: chaos: %s%n", faults.get(i).flag);
          out.printf("[streamlab] measure: chaos: %s%n", faults.get(i).inject(cluster));
        }
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "cluster-faults");
    t.start();
    return t;
  }
}
