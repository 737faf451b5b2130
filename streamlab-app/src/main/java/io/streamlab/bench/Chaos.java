package io.streamlab.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --chaos=}: faults during the measurement window, comma-separated.
 *
 * <ul>
 *   <li>{@code kill-ingest:N}: kill -9 the ingestion process N times at random moments, restarting it;
 *   <li>{@code kill-taskmanager}, {@code kill-broker} (with {@code --cluster}): kill -9 one Flink
 *       TaskManager / one Kafka broker and start it again; {@code restart-postgres} (with
 *       {@code --cluster}, or an embedded run whose {@code --store=postgres} is this machine's
 *       server): restart PostgreSQL; spread evenly over the window (see {@link ClusterFault}).
 * </ul>
 *
 * @param clusterDir the cluster the cluster faults hit (null without --cluster)
 */
public record Chaos(int ingestKills, List<ClusterFault> clusterFaults, Path clusterDir) {
  public static final Chaos NONE = new Chaos(0);

  public Chaos(int ingestKills) {
    this(ingestKills, List.of(), null);
  }

  /** True if something is killed or restarted: counters then include replays, so drains wait for committed offsets. */
  public boolean any() {
    return ingestKills > 0 || !clusterFaults.isEmpty();
  }

  /** True if a fault hits a cluster member (TaskManager, broker): those need --cluster. */
  public boolean needsCluster() {
    return clusterFaults.stream().anyMatch(ClusterFault::needsCluster);
  }

  /** True if PostgreSQL is restarted: the run's table must be in this machine's server. */
  public boolean restartsPostgres() {
    return clusterFaults.contains(ClusterFault.RESTART_POSTGRES);
  }

  public Chaos onCluster(Path dir) {
    return new Chaos(ingestKills, clusterFaults, dir);
  }

  public static Chaos parse(String spec) {
    if (spec == null || spec.isBlank() || spec.equals("none")) return NONE;
    int kills = 0;
    List<ClusterFault> faults = new ArrayList<>();
    for (String part : spec.split(",")) {
      String p = part.trim();
      if (p.startsWith("kill-ingest:")) {
        try {
          kills = Integer.parseInt(p.substring("kill-ingest:".length()));
        } catch (NumberFormatException e) {
          kills = -1;
        }
        if (kills < 0) throw usage(spec);
      } else {
        faults.add(ClusterFault.named(p).orElseThrow(() -> usage(spec)));
      }
    }
    return new Chaos(kills, List.copyOf(faults), null);
  }

  private static IllegalArgumentException usage(String spec) {
    return new IllegalArgumentException("--chaos must be a comma-separated list of kill-ingest:N (N >= 0), "
        + "kill-taskmanager, kill-broker, restart-postgres; got: " + spec);
  }

  /**
   * {@code n} random moments ({@link System#nanoTime()} terms, sorted) within the middle 80 % of
   * a phase of {@code duration} starting at {@code startNanos}: a kill at the very start or end
   * would test less.
   */
  static long[] moments(int n, long startNanos, java.time.Duration duration) {
    long[] at = new long[n];
    java.util.Random random = new java.util.Random();
    for (int i = 0; i < n; i++) at[i] = startNanos + (long) ((0.1 + 0.8 * random.nextDouble()) * duration.toNanos());
    java.util.Arrays.sort(at);
    return at;
  }
}
