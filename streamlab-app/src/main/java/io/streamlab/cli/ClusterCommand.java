package io.streamlab.cli;

import io.streamlab.cluster.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = {"A real multi-process cluster on this machine, bound to 127.0.0.1: an Apache Flink 1.19 "
        + "standalone session cluster (one JobManager, --taskManagers TaskManagers, each its own JVM), a KRaft "
        + "Kafka cluster of --brokers brokers (each its own JVM; topics replicated 3 ways, min.insync.replicas 2) "
        + "and the local PostgreSQL as table store. Its state lives in --dir, so status and down work from "
        + "another invocation. Use it with 'streamlab run --cluster'."},
    subcommands = {ClusterCommand.Up.class, ClusterCommand.Down.class, ClusterCommand.Status.class})
final class ClusterCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new IllegalArgumentException("cluster needs a subcommand: up, down or status");
  }

  static class DirOption {
    @Option(names = "--dir", defaultValue = "cluster",
        description = "Cluster directory (state, configs, logs, data). Default: ${DEFAULT-VALUE}.")
    Path dir;
  }

  @Command(name = "up", mixinStandardHelpOptions = true, description = "Start the cluster and wait until every member serves.")
  static final class Up implements Callable<Integer> {
    @picocli.CommandLine.Mixin DirOption dir;

    @Option(names = "--taskManagers", defaultValue = "2", description = "Flink TaskManagers. Default: ${DEFAULT-VALUE}.")
    int taskManagers;

    @Option(names = "--slots", defaultValue = "2", description = "Task slots per TaskManager. Default: ${DEFAULT-VALUE}.")
    int slots;

    @Option(names = "--brokers", defaultValue = "3", description = "Kafka brokers. Default: ${DEFAULT-VALUE}.")
    int brokers;

    @Override
    public Integer call() throws Exception {
      if (taskManagers < 1 || slots < 1 || brokers < 1) {
        throw new IllegalArgumentException("--taskManagers, --slots and --brokers must be at least 1");
      }
      LocalCluster c = LocalCluster.up(dir.dir, taskManagers, slots, brokers, System.out);
      System.out.print(c.status());
      return 0;
    }
  }

  @Command(name = "down", mixinStandardHelpOptions = true,
      description = "Stop every member of the cluster; exit 1 if a port of it is still in use afterwards.")
  static final class Down implements Callable<Integer> {
    @picocli.CommandLine.Mixin DirOption dir;

    @Override
    public Integer call() throws Exception {
      List<Integer> busy = LocalCluster.open(dir.dir).down(System.out);
      if (!busy.isEmpty()) {
        System.out.println("[cluster] ports still in use: " + busy);
        return 1;
      }
      System.out.println("[cluster] down: no member process, no port left");
      return 0;
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "Show each member (pid or DOWN) and the addresses; exit 1 unless all are up.")
  static final class Status implements Callable<Integer> {
    @picocli.CommandLine.Mixin DirOption dir;

    @Override
    public Integer call() throws Exception {
      LocalCluster c = LocalCluster.open(dir.dir);
      System.out.print(c.status());
      return c.allUp() ? 0 : 1;
    }
  }
}
