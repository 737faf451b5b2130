package io.streamlab.cluster;

import io.streamlab.broker.KafkaNode;
import io.streamlab.broker.Topics;
import io.streamlab.process.Ports;
import io.streamlab.process.Trees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
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

  /**
   * Starts everything and waits until Flink has all its TaskManagers and Kafka all its brokers.
   * Ports are chosen before the members bind them; a member that finds one taken meanwhile has its
   * group (Kafka's nodes, which all name each other's ports, or Flink's members) started again on
   * fresh ports, up to {@link #START_ATTEMPTS} times each, and {@code out} says so.
   */
  public static LocalCluster up(Path dir, int taskManagers, int slotsPerTaskManager, int brokers, PrintStream out)
      throws IOException, InterruptedException {
    return up(dir, taskManagers, slotsPerTaskManager, brokers, out, Ports::freeLoopbackPort);
  }

  /** As {@link #up(Path, int, int, int, PrintStream)}, with ports from {@code ports} (tests take one away). */
  static LocalCluster up(Path dir, int taskManagers, int slotsPerTaskManager, int brokers, PrintStream out,
      Ports.Source ports) throws IOException, InterruptedException {
    if (ClusterState.exists(dir)) {
      LocalCluster existing = open(dir);
      if (existing.state.members().stream().anyMatch(m -> existing.member(m).alive())) {
        throw new IllegalArgumentException("a cluster is already up in " + dir.toAbsolutePath()
            + "; 'streamlab cluster down --dir=" + dir + "' first");
      }
    }
    ClusterState state = ClusterState.fresh(dir);
    LocalCluster cluster = new LocalCluster(state);
    StartUp s = cluster.new StartUp(ports, out);
    try {
      boolean pgStarted = LocalPostgres.ensureRunning();
      state.set("postgres.jdbcUrl", LocalPostgres.JDBC_URL);
      state.set("postgres.startedByCluster", Boolean.toString(pgStarted));
      out.println("[cluster] PostgreSQL " + (pgStarted ? "started" : "already running") + " at 127.0.0.1:5432");
      state.set("flink.taskmanagers", Integer.toString(taskManagers));
      state.set("flink.slots.total", Integer.toString(taskManagers * slotsPerTaskManager));
      state.set("kafka.brokers", Integer.toString(brokers));

      // both groups start before either is waited for: Flink comes up while Kafka's quorum forms
      s.startKafka(brokers);
      s.startFlink(taskManagers, slotsPerTaskManager);
      s.await(KAFKA, () -> cluster.awaitBrokers(brokers, START_TIMEOUT), () -> s.startKafka(brokers));
      out.println("[cluster] Kafka: " + brokers + " brokers at " + state.bootstrapServers());
      s.await(FLINK, () -> cluster.awaitTaskManagers(taskManagers, START_TIMEOUT),
          () -> s.startFlink(taskManagers, slotsPerTaskManager));
      out.println("[cluster] Flink: JobManager at " + state.flinkMaster() + " (REST), " + taskManagers
          + " TaskManagers, " + state.totalSlots() + " slots");
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException e) {
      s.record();
      cluster.reportExited(state.members(), out);
      cluster.down(out);
      throw e;
    }
  }

  /** Attempts each group (Kafka, Flink) gets at start-up when a member finds a port of its taken. */
  static final int START_ATTEMPTS = 3;
  private static final String KAFKA = "Kafka", FLINK = "Flink";

  /** A member exited at start because a port chosen for it was taken before it bound it. */
  static final class PortTakenException extends IllegalStateException {
    PortTakenException(String message) {
      super(message);
    }
  }

  private interface Step {
    void run() throws IOException, InterruptedException;
  }

  /**
   * One {@code cluster up}: the members of each group and the ports chosen for them, kept in the
   * cluster state after every (re)start so that {@code down} finds them whatever happens next.
   */
  private final class StartUp {
    private final Ports.Source ports;
    private final PrintStream out;
    private final Map<String, List<String>> members = new LinkedHashMap<>();
    private final Map<String, List<Integer>> portsOf = new LinkedHashMap<>();

    StartUp(Ports.Source ports, PrintStream out) {
      this.ports = ports;
      this.out = out;
      members.put(KAFKA, List.of());
      members.put(FLINK, List.of());
    }

    /** Kafka: N combined broker+controller nodes sharing one quorum, on fresh ports and fresh storage. */
    void startKafka(int brokers) throws IOException, InterruptedException {
      List<KafkaNode> nodes = new ArrayList<>();
      for (int i = 1; i <= brokers; i++) nodes.add(new KafkaNode(i, ports.next(), ports.next()));
      String clusterId = KafkaNode.newClusterId();
      StringJoiner bootstrap = new StringJoiner(",");
      List<String> names = new ArrayList<>();
      List<Integer> used = new ArrayList<>();
      for (KafkaNode n : nodes) {
        Path nodeDir = Files.createDirectories(state.dir().resolve("kafka-" + n.nodeId()));
        // the quorum's voters (every node's controller port) are in each node's store: an attempt's store is of no use to the next
        Trees.delete(nodeDir.resolve("data"));
        Path config = nodeDir.resolve("server.properties");
        Files.writeString(config, n.serverProperties(nodes, nodeDir.resolve("data")));
        Process format = KafkaNode.formatCommand(config, clusterId).startLoggingTo(nodeDir.resolve("format.log"));
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
          throw new IllegalStateException("formatting Kafka node " + n.nodeId() + " failed; see " + nodeDir.resolve("format.log"));
        }
        String name = "kafka-" + n.nodeId();
        startMember(name, KafkaNode.serverCommand(config).command());
        names.add(name);
        used.addAll(List.of(n.port(), n.controllerPort()));
        bootstrap.add(n.address());
        members.put(KAFKA, List.copyOf(names));
        portsOf.put(KAFKA, List.copyOf(used));
        record();
      }
      state.set("kafka.bootstrapServers", bootstrap.toString());
      record();
    }

    /** Flink: the JobManager on fresh RPC and REST ports, then the TaskManagers (which bind port 0). */
    void startFlink(int taskManagers, int slotsPerTaskManager) throws IOException {
      int rpcPort = ports.next(), restPort = ports.next();
      FlinkSetup flink = new FlinkSetup(state.dir(), rpcPort, restPort, slotsPerTaskManager);
      flink.writeConfig();
      portsOf.put(FLINK, List.of(rpcPort, restPort));
      List<String> names = new ArrayList<>(List.of(JOB_MANAGER));
      for (int i = 1; i <= taskManagers; i++) names.add("taskmanager-" + i);
      members.put(FLINK, List.copyOf(names));
      state.set("flink.master", "127.0.0.1:" + restPort);
      record();
      startMember(JOB_MANAGER, flink.jobManagerCommand());
      for (String name : names.subList(1, names.size())) startMember(name, flink.taskManagerCommand(name));
    }

    /**
     * Waits for a group; when one of its members exited for a taken port, stops the rest of the
     * group and starts it all again on fresh ports, at most {@link #START_ATTEMPTS} times in all.
     */
    void await(String group, Step ready, Step again) throws IOException, InterruptedException {
      for (int attempt = 1; ; attempt++) {
        try {
          ready.run();
          return;
        } catch (PortTakenException e) {
          if (attempt == START_ATTEMPTS) throw e;
          out.println("[cluster] " + e.getMessage() + "; starting " + group + " again on fresh ports (attempt "
              + (attempt + 1) + " of " + START_ATTEMPTS + ")");
          List<MemberProcess> running = members.get(group).stream().map(LocalCluster.this::member).toList();
          for (MemberProcess p : running) p.signalStop();
          for (MemberProcess p : running) p.stop(20);
          again.run();
        }
      }
    }

    /** Members and ports into the cluster state, saved. */
    void record() throws IOException {
      state.set("members", String.join(",", members.values().stream().flatMap(List::stream).toList()));
      state.set("ports", String.join(",", portsOf.values().stream().flatMap(List::stream).map(String::valueOf).toList()));
      state.save();
    }
  }

  /** Where each member's log stood when this process last started it: its own output begins there. */
  private final Map<String, Long> logFrom = new ConcurrentHashMap<>();

  private void startMember(String name, List<String> command) throws IOException {
    MemberProcess m = member(name);
    logFrom.put(name, Ports.logSize(m.log()));
    m.start(command);
  }

  /**
   * Fails at once when one of {@code names} has exited: a {@link PortTakenException} if its log
   * says a port was taken, else an IllegalStateException; waiting out the timeout would tell less.
   */
  private void failIfExited(List<String> names) {
    for (String name : names) {
      MemberProcess m = member(name);
      if (m.alive()) continue;
      if (Ports.bindFailed(m.log(), logFrom.getOrDefault(name, 0L))) {
        throw new PortTakenException(name + " exited: a port chosen for it was taken before it bound it"
            + " (\"Address already in use\" in " + m.log() + ")");
      }
      throw new IllegalStateException(name + " exited during start-up; see " + m.log());
    }
  }

  private List<String> membersStartingWith(String... prefixes) {
    return state.members().stream().filter(m -> java.util.Arrays.stream(prefixes).anyMatch(m::startsWith)).toList();
  }

  /** Waits until Kafka shows {@code n} brokers; fails at once if a node exits. */
  void awaitBrokers(int n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String seen = "none";
    while (System.nanoTime() < deadline) {
      failIfExited(membersStartingWith("kafka-"));
      try {
        int brokers = Topics.brokers(state.bootstrapServers());
        if (brokers >= n) return;
        seen = brokers + " broker(s)";
      } catch (Exception notYet) {
        seen = notYet.getMessage();
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("Kafka at " + state.bootstrapServers() + " did not show " + n + " brokers within "
        + timeout.toSeconds() + " s (last seen: " + seen + ")");
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

  /** Waits until Flink reports {@code n} registered TaskManagers; fails at once if a Flink member exits. */
  public void awaitTaskManagers(int n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String seen = "no answer";
    FlinkRest rest = new FlinkRest(state.flinkMaster());
    while (System.nanoTime() < deadline) {
      failIfExited(membersStartingWith(JOB_MANAGER, "taskmanager-"));
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
    return killAndRestart("kafka-", pause, () -> awaitBrokers(countMembers("kafka-"), START_TIMEOUT));
  }

  private int countMembers(String prefix) {
    return (int) state.members().stream().filter(m -> m.startsWith(prefix)).count();
  }

  /** The last member with that prefix: never the first broker, whose address clients start from. */
  private String killAndRestart(String prefix, Duration pause, Step back) throws IOException, InterruptedException {
    String victim = state.members().stream().filter(m -> m.startsWith(prefix)).reduce((a, b) -> b)
        .orElseThrow(() -> new IllegalStateException("the cluster has no " + prefix + "* member"));
    MemberProcess p = member(victim);
    long pid = p.handle().map(ProcessHandle::pid).orElse(-1L);
    p.kill();
    Thread.sleep(pause.toMillis());
    logFrom.put(victim, Ports.logSize(p.log()));
    p.restart();
    back.run();
    return victim + " (pid " + pid + ") killed with kill -9, restarted after " + pause.toSeconds() + " s";
  }
}
