package io.streamlab.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A cluster member process (JobManager, TaskManager, Kafka node), started detached so it outlives
 * the {@code streamlab cluster up} that started it, and found again by the pid file in the cluster
 * directory. Its command line is kept beside it so a fault test can kill -9 it and start it again
 * exactly as before; its output is appended to {@code <name>.log}.
 */
final class MemberProcess {
  private final ClusterState state;
  private final String name;

  MemberProcess(ClusterState state, String name) {
    this.state = state;
    this.name = name;
  }

  String name() {
    return name;
  }

  Path log() {
    return state.file(name, ".log");
  }

  /** Starts it with this command line (kept for restarts). */
  long start(List<String> command) throws IOException {
    Files.write(state.file(name, ".cmd"), command);
    return restart();
  }

  /** Starts it again with the command line it was first started with. */
  long restart() throws IOException {
    List<String> command = Files.readAllLines(state.file(name, ".cmd"));
    Process p = new ProcessBuilder(command).directory(state.dir().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
        .start();
    Files.writeString(state.file(name, ".pid"), Long.toString(p.pid()));
    return p.pid();
  }

  /** The running process, if its pid file names a live java process. */
  Optional<ProcessHandle> handle() {
    Path pidFile = state.file(name, ".pid");
    if (!Files.isRegularFile(pidFile)) return Optional.empty();
    try {
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      // a recycled pid belongs to some other program: only a java process is ours
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
          .filter(h -> h.info().command().map(c -> c.endsWith("java")).orElse(true));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  boolean alive() {
    return handle().isPresent();
  }

  /** kill -9: no shutdown hook, no goodbye. Waits until it is gone. */
  void kill() throws InterruptedException {
    Optional<ProcessHandle> h = handle();
    if (h.isEmpty()) return;
    h.get().destroyForcibly();
    awaitExit(h.get(), 30);
  }

  /** SIGTERM, without waiting. */
  void signalStop() {
    handle().ifPresent(ProcessHandle::destroy);
  }

  /** SIGTERM, up to {@code graceSeconds} to exit, then SIGKILL. */
  void stop(int graceSeconds) throws InterruptedException {
    Optional<ProcessHandle> h = handle();
    if (h.isEmpty()) return;
    h.get().destroy();
    if (!awaitExit(h.get(), graceSeconds)) {
      h.get().destroyForcibly();
      awaitExit(h.get(), 30);
    }
  }

  private static boolean awaitExit(ProcessHandle h, int seconds) throws InterruptedException {
    try {
      h.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return !h.isAlive();
    }
  }
}
