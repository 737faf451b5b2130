package io.streamlab.cluster;

import io.streamlab.broker.KafkaNode;
import io.streamlab.broker.Topics;
import io.streamlab.process.Ports;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * {@code streamlab cluster}: on loopback, a Flink standalone session cluster (one JobManager, N
 * TaskManagers), a KRaft Kafka cluster of N brokers (topics replicated 3 ways, 2 in sync) and the
 * local PostgreSQL as table store; every member its own process, found again through the
 * {@link ClusterState} in the cluster directory. Also the faults {@code --chaos} injects.
 */
public final class LocalCluster {
  public static final String JOB_MANAGER = "jobmanager";
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final ClusterState state;

  private LocalCluster(ClusterState state) {
    this.state = state;
  }

  public static LocalCluster open(Path dir) throws IOException {
    return new LocalCluster(ClusterState.load(dir));
  }

  public ClusterState state() {
    return state;
  }

  /** Starts everything and waits until Flink has all its TaskManagers and Kafka all its brokers. */
  public static LocalCluster up(Path dir, int taskManagers, int slotsPerTaskManager, int brokers, PrintStream out)
      throws IOException, InterruptedException {
    if (ClusterState.exists(dir)) {
      LocalCluster existing = open(dir);
      if (existing.state.members().stream().anyMatch(m -> existing.member(m).alive())) {
        throw new IllegalArgumentException("a cluster is already up in " + dir.toAbsolutePath()
            + "; 'streamlab cluster down --dir=" + dir + "' first");
      }
    }
    ClusterState state = ClusterState.fresh(dir);
    LocalCluster cluster = new LocalCluster(state);
    List<String> members = new ArrayList<>();
    List<Integer> ports = new ArrayList<>();
    try {
      boolean pgStarted = LocalPostgres.ensureRunning();
      state.set("postgres.jdbcUrl", LocalPostgres.JDBC_URL);
      state.set("postgres.startedByCluster", Boolean.toString(pgStarted));
      out.println("[cluster] PostgreSQL " + (pgStarted ? "started" : "already running") + " at 127.0.0.1:5432");

      // Kafka: N combined broker+controller nodes sharing one quorum
      List<KafkaNode> nodes = new ArrayList<>();
      for (int i = 1; i <= brokers; i++) nodes.add(new KafkaNode(i, Ports.freeLoopbackPort(), Ports.freeLoopbackPort()));
      String clusterId = KafkaNode.newClusterId();
      StringJoiner bootstrap = new StringJoiner(",");
      for (KafkaNode n : nodes) {
        Path nodeDir = Files.createDirectories(state.dir().resolve("kafka-" + n.nodeId()));
        Path config = nodeDir.resolve("server.properties");
        Files.writeString(config, n.serverProperties(nodes, nodeDir.resolve("data")));
        Process format = KafkaNode.formatCommand(config, clusterId).startLoggingTo(nodeDir.resolve("format.log"));
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
          throw new IllegalStateException("formatting Kafka node " + n.nodeId() + " failed; see " + nodeDir.resolve("format.log"));
        }
        String name = "kafka-" + n.nodeId();
        cluster.member(name).start(KafkaNode.serverCommand(config).command());
        members.add(name);
        ports.addAll(List.of(n.port(), n.controllerPort()));
        bootstrap.add(n.address());
      }
      state.set("kafka.bootstrapServers", bootstrap.toString());

      // Flink: JobManager, then the TaskManagers
      int rpcPort = Ports.freeLoopbackPort(), restPort = Ports.freeLoopbackPort();
      FlinkSetup flink = new FlinkSetup(state.dir(), rpcPort, restPort, slotsPerTaskManager);
      flink.writeConfig();
      cluster.member(JOB_MANAGER).start(flink.jobManagerCommand());
      members.add(JOB_MANAGER);
      for (int i = 1; i <= taskManagers; i++) {
        String name = "taskmanager-" + i;
        cluster.member(name).start(flink.taskManagerCommand(name));
        members.add(name);
      }
      ports.addAll(List.of(rpcPort, restPort));
      state.set("flink.master", "127.0.0.1:" + restPort);
      state.set("flink.taskmanagers", Integer.toString(taskManagers));
      state.set("flink.slots.total", Integer.toString(taskManagers * slotsPerTaskManager));
      state.set("kafka.brokers", Integer.toString(brokers));
      state.set("members", String.join(",", members));
      state.set("ports", String.join(",", ports.stream().map(String::valueOf).toList()));
      state.save();

      Topics.awaitBrokers(state.bootstrapServers(), brokers, START_TIMEOUT);
      out.println("[cluster] Kafka: " + brokers + " brokers at " + state.bootstrapServers());
      cluster.awaitTaskManagers(taskManagers, START_TIMEOUT);
      out.println("[cluster] Flink: JobManager at " + state.flinkMaster() + " (REST), " + taskManagers
          + " TaskManagers, " + state.totalSlots() + " slots");
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      state.set("members", String.join(",", members));
      state.save();
      cluster.reportExited(members, out);
      cluster.down(out);
      throw e;
    }
  }

  /**
   * Members that exited during start-up, with the end of their logs, printed before the cluster is
   * taken down: a test's cluster directory (and the logs in it) goes with the test, and a member
   * that died at start (a port taken, a quorum that never formed) otherwise leaves only a timeout.
   */
  private void reportExited(List<String> members, PrintStream out) {
    for (String name : members) {
      MemberProcess m = member(name);
      if (m.alive()) continue;
      out.println("[cluster] " + name + " exited during start-up; the end of " + m.log() + ":");
      try {
        List<String> lines = Files.readAllLines(m.log(), java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String line : lines.subList(Math.max(0, lines.size() - 25), lines.size())) out.println("[cluster]   " + line);
      } catch (IOException e) {
        out.println("[cluster]   (log unreadable: " + e.getMessage() + ")");
      }
    }
  }

  MemberProcess member(String name) {
    return new MemberProcess(state, name);
  }

  /** Waits until Flink reports {@code n} registered TaskManagers. */
  public void awaitTaskManagers(int n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String seen = "no answer";
    FlinkRest rest = new FlinkRest(state.flinkMaster());
    while (System.nanoTime() < deadline) {
      if (!member(JOB_MANAGER).alive()) {
        throw new IllegalStateException("the Flink JobManager exited; see " + member(JOB_MANAGER).log());
      }
      try {
        int tms = rest.taskManagers();
        if (tms >= n) return;
        seen = tms + " TaskManager(s)";
      } catch (IOException notYet) {
        seen = notYet.getMessage();
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("Flink at " + state.flinkMaster() + " did not register " + n
        + " TaskManagers within " + timeout.toSeconds() + " s (last seen: " + seen + "); see " + state.dir());
  }

  /** One line per member: name, pid or "down"; and the addresses. */
  public String status() {
    StringBuilder s = new StringBuilder();
    s.append("cluster ").append(state.dir()).append('\n');
    for (String m : state.members()) {
      MemberProcess p = member(m);
      s.append(String.format("  %-14s %s%n", m, p.handle().map(h -> "up (pid " + h.pid() + ")").orElse("DOWN")));
    }
    s.append("  flinkMaster       ").append(state.flinkMaster()).append('\n');
    s.append("  bootstrapServers  ").append(state.bootstrapServers()).append('\n');
    s.append("  jdbcUrl           ").append(state.jdbcUrl())
        .append(LocalPostgres.reachable() ? " (reachable)" : " (NOT reachable)").append('\n');
    return s.toString();
  }

  public boolean allUp() {
    return !state.members().isEmpty() && state.members().stream().allMatch(m -> member(m).alive());
  }

  /**
   * Stops every member (TaskManagers first, Kafka last so Flink's readers do not spin on it),
   * PostgreSQL too if {@code up} started it, and checks nothing is left listening.
   *
   * @return the ports still in use afterwards (empty when all is clean)
   */
  public List<Integer> down(PrintStream out) throws IOException, InterruptedException {
    List<String> members = new ArrayList<>(state.members());
    java.util.Collections.reverse(members);
    // all at once: Kafka nodes stopped one by one each wait for the quorum the previous ones left
    List<MemberProcess> running = members.stream().map(this::member).filter(MemberProcess::alive).toList();
    for (MemberProcess p : running) p.signalStop();
    for (MemberProcess p : running) {
      p.stop(20);
      out.println("[cluster] stopped " + p.name());
    }
    if (state.postgresStartedHere()) {
      LocalPostgres.stop();
      out.println("[cluster] stopped PostgreSQL (cluster up had started it)");
    }
    List<Integer> busy = new ArrayList<>();
    for (int attempt = 0; attempt < 20; attempt++) {
      busy = state.ports().stream().filter(Ports::inUse).toList();
      if (busy.isEmpty()) break;
      Thread.sleep(250);
    }
    return busy;
  }

  /** Fault: kill -9 one TaskManager, wait {@code pause}, start it again and wait until it registers. */
  public String killAndRestartTaskManager(Duration pause) throws IOException, InterruptedException {
    return killAndRestart("taskmanager-", pause, () -> awaitTaskManagers(countMembers("taskmanager-"), START_TIMEOUT));
  }

  /** Fault: kill -9 one Kafka broker, wait {@code pause}, start it again and wait until it is back. */
  public String killAndRestartBroker(Duration pause) throws IOException, InterruptedException {
    return killAndRestart("kafka-", pause, () -> Topics.awaitBrokers(state.bootstrapServers(), countMembers("kafka-"), START_TIMEOUT));
  }

  private interface Await {
    void run() throws InterruptedException;
  }

  private int countMembers(String prefix) {
    return (int) state.members().stream().filter(m -> m.startsWith(prefix)).count();
  }

  /** The last member with that prefix: never the first broker, whose address clients start from. */
  private String killAndRestart(String prefix, Duration pause, Await back) throws IOException, InterruptedException {
    String victim = state.members().stream().filter(m -> m.startsWith(prefix)).reduce((a, b) -> b)
        .orElseThrow(() -> new IllegalStateException("the cluster has no " + prefix + "* member"));
    MemberProcess p = member(victim);
    long pid = p.handle().map(ProcessHandle::pid).orElse(-1L);
    p.kill();
    Thread.sleep(pause.toMillis());
    p.restart();
    back.run();
    return victim + " (pid " + pid + ") killed with kill -9, restarted after " + pause.toSeconds() + " s";
  }
}
