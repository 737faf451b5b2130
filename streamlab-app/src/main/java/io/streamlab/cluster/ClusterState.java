package io.streamlab.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * What {@code streamlab cluster up} started, kept in the cluster directory so that {@code status},
 * {@code down}, {@code run --cluster} and the fault injector of another invocation find it:
 * {@code cluster.properties} (addresses, ports, which members exist) and, per member process,
 * {@code <name>.cmd} (its command line, one argument a line, to restart it), {@code <name>.pid}
 * and {@code <name>.log}. Holds no credentials.
 */
public final class ClusterState {
  static final String FILE = "cluster.properties";
  private final Path dir;
  private final Properties props;

  private ClusterState(Path dir, Properties props) {
    this.dir = dir;
    this.props = props;
  }

  static ClusterState fresh(Path dir) throws IOException {
    return new ClusterState(Files.createDirectories(dir).toAbsolutePath(), new Properties());
  }

  /** The state of the cluster in {@code dir}; an IllegalArgumentException naming it if there is none. */
  public static ClusterState load(Path dir) throws IOException {
    Path f = dir.resolve(FILE);
    if (!Files.isRegularFile(f)) {
      throw new IllegalArgumentException("no cluster in " + dir.toAbsolutePath() + " (no " + FILE
          + "): start one with 'streamlab cluster up --dir=" + dir + "'");
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(f)) {
      p.load(r);
    }
    return new ClusterState(dir.toAbsolutePath(), p);
  }

  static boolean exists(Path dir) {
    return Files.isRegularFile(dir.resolve(FILE));
  }

  void save() throws IOException {
    try (Writer w = Files.newBufferedWriter(dir.resolve(FILE))) {
      props.store(w, "streamlab cluster: written by 'streamlab cluster up'");
    }
  }

  public Path dir() {
    return dir;
  }

  /** Flink REST address (host:port): Beam's --flinkMaster. */
  public String flinkMaster() {
    return props.getProperty("flink.master");
  }

  public String bootstrapServers() {
    return props.getProperty("kafka.bootstrapServers");
  }

  /** JDBC URL of the table store's database, without password. */
  public String jdbcUrl() {
    return props.getProperty("postgres.jdbcUrl");
  }

  /** Task slots over all TaskManagers: the parallelism that spreads a job over all of them. */
  public int totalSlots() {
    return Integer.parseInt(props.getProperty("flink.slots.total", "1"));
  }

  boolean postgresStartedHere() {
    return Boolean.parseBoolean(props.getProperty("postgres.startedByCluster", "false"));
  }

  /** Member process names in start order (jobmanager, taskmanager-N, kafka-N). */
  public List<String> members() {
    String m = props.getProperty("members", "");
    return m.isEmpty() ? List.of() : List.of(m.split(","));
  }

  /** Every TCP port the cluster's processes listen on that streamlab chose (for the 'no port left' check). */
  List<Integer> ports() {
    String p = props.getProperty("ports", "");
    return p.isEmpty() ? List.of() : java.util.Arrays.stream(p.split(",")).map(Integer::parseInt).toList();
  }

  void set(String key, String value) {
    props.setProperty(key, value);
  }

  Path file(String member, String suffix) {
    return dir.resolve(member + suffix);
  }
}
