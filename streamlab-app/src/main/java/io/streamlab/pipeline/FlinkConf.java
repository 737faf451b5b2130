package io.streamlab.pipeline;

import io.streamlab.process.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink settings that keep every server socket streamlab starts on one address (loopback by
 * default), and a generated configuration directory that hands them to the embedded MiniCluster
 * through Beam's {@code --flinkConfDir}.
 *
 * <p>Why loopback and not just a switch: Flink's REST API serves {@code /jobmanager/environment}
 * (the JVM options) and cancels jobs; in Flink 1.19 {@code web.cancel.enable=false} only hides the
 * button of the web UI, {@code PATCH /jobs/ID?mode=cancel} still cancels. Only an address other
 * hosts cannot reach protects the run.
 */
public final class FlinkConf {
  /** The default of {@code --bindAddress}: nothing streamlab starts is reachable from elsewhere. */
  public static final String LOOPBACK = "127.0.0.1";

  private FlinkConf() {}

  /**
   * Every listener of a JobManager and TaskManager on {@code address}: RPC, REST, the BLOB server
   * (it binds jobmanager.bind-host), the shuffle (data) port (taskmanager.bind-host) and the
   * metric query service (the RPC bind host); jar upload and UI cancel off.
   */
  public static Map<String, String> listenersOn(String address) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("jobmanager.rpc.address", address);
    s.put("jobmanager.bind-host", address);
    s.put("rest.address", address);
    s.put("rest.bind-address", address);
    s.put("taskmanager.host", address);
    s.put("taskmanager.bind-host", address);
    s.put("web.submit.enable", "false");
    s.put("web.cancel.enable", "false");
    return s;
  }

  /**
   * The embedded MiniCluster's settings: the listeners, and a bounded restart strategy. Flink's
   * default with checkpointing is to restart for ever, so a failure that recurs (an unusable
   * store, a vanished topic) became a restart loop behind a status line that kept printing; with
   * at most 10 failures a minute the job fails and ingestion exits with its cause. A Beam option
   * such as {@code --numberOfExecutionRetries} still overrides this.
   */
  public static Map<String, String> embedded(String bindAddress) {
    Map<String, String> s = listenersOn(bindAddress);
    s.put("restart-strategy.type", "failure-rate");
    s.put("restart-strategy.failure-rate.max-failures-per-interval", "10");
    s.put("restart-strategy.failure-rate.failure-rate-interval", "1 min");
    s.put("restart-strategy.failure-rate.delay", "1 s");
    // Checkpoints to files, not to the JobManager's memory: Flink's default there refuses any
    // operator state over 5 MB, and an exactly-once write holds its open batches in state (a
    // 10 s trigger at 15 k events/s is ~150 MB), so every checkpoint failed, the task restarted
    // from the last good one and ingestion stalled in replays.
    s.put("state.backend.type", "hashmap");
    s.put("state.checkpoint-storage", "filesystem");
    s.put("state.checkpoints.dir", checkpointDir().toUri().toString());
    // Flink's temporary files too, among them the RPC system's jar it extracts at every start
    // (~20 MB): a killed JVM left it in /tmp, one per run; here it goes with the directory.
    s.put("io.tmp.dirs", checkpointDir().toString());
    return s;
  }

  /**
   * The directory for this JVM's checkpoints, made once: every job of the JVM shares it (Flink keeps
   * each job's checkpoints under its job id), so a test that builds many pipelines makes one
   * directory and one shutdown hook, not one per pipeline.
   */
  static Path checkpointDir() {
    return CheckpointDir.PATH;
  }

  private static final class CheckpointDir {
    static final Path PATH = create();

    private static Path create() {
      try {
        return jvmTempDir("streamlab-checkpoints-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a directory for Flink's checkpoints", e);
      }
    }
  }

  /**
   * A fresh directory in java.io.tmpdir named {@code prefix + pid + "-"...}, removed with what it
   * holds when this JVM exits; those of JVMs that are gone (kill -9 runs no exit hook) are removed first.
   */
  static Path jvmTempDir(String prefix) throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (var old = Files.newDirectoryStream(tmp, prefix + "*")) {
      for (Path d : old) {
        String pid = d.getFileName().toString().substring(prefix.length()).split("-")[0];
        if (pid.matches("\\d+") && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) Trees.deleteQuietly(d);
      }
    }
    Path dir = Files.createTempDirectory(tmp, prefix + ProcessHandle.current().pid() + "-");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> Trees.deleteQuietly(dir), prefix + "cleanup"));
    return dir;
  }

  /** Writes {@code settings} as flink-conf.yaml into a fresh directory and returns it. */
  public static Path writeDir(Map<String, String> settings) {
    try {
      Path dir = jvmTempDir("streamlab-flink-conf-");
      StringBuilder yaml = new StringBuilder("# written by streamlab (pipeline/FlinkConf)\n");
      settings.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
      Files.writeString(dir.resolve("flink-conf.yaml"), yaml);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the Flink configuration", e);
    }
  }
}
