package io.streamlab.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Starts child JVMs (the Kafka broker, the ingestion pipeline). Children never outlive
 * streamlab: a shutdown hook stops those still running, so Ctrl-C leaves no process behind.
 */
public final class JavaProcess {
  /** Flink/Kryo and Arrow reach into JDK internals on Java 17 (same list as the jar manifest). */
  public static final List<String> REQUIRED_JVM_OPTIONS = List.of(
      "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");

  private static final Set<Process> CHILDREN = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(JavaProcess::stopAll, "stop-children"));
  }

  private final String mainClass;
  private String classpath = System.getProperty("java.class.path");
  private final List<String> jvmOptions = new ArrayList<>(REQUIRED_JVM_OPTIONS);
  private final List<String> args = new ArrayList<>();
  private Path workingDir;
  /** Environment changes for the child: name -> value, or null to remove the variable. */
  private final java.util.Map<String, String> environment = new java.util.HashMap<>();

  private JavaProcess(String mainClass) {
    this.mainClass = mainClass;
  }

  /** A child running {@code mainClass} on this JVM's own classpath unless told otherwise. */
  public static JavaProcess builder(String mainClass) {
    return new JavaProcess(mainClass);
  }

  public JavaProcess classpath(List<Path> entries) {
    classpath = String.join(File.pathSeparator, entries.stream().map(Path::toString).toList());
    return this;
  }

  public JavaProcess jvmOptions(List<String> options) {
    jvmOptions.addAll(options);
    return this;
  }

  public JavaProcess args(List<String> arguments) {
    args.addAll(arguments);
    return this;
  }

  public JavaProcess workingDir(Path dir) {
    workingDir = dir;
    return this;
  }

  /** Sets (or, with a null value, removes) an environment variable of the child; the rest is inherited. */
  public JavaProcess environment(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** Starts it with stdout+stderr going to {@code logFile}. */
  public Process startLoggingTo(Path logFile) throws IOException {
    ProcessBuilder pb = processBuilder().redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    return track(pb.start());
  }

  /** Starts it with stdout+stderr readable from {@link Process#getInputStream()} and stdin open. */
  public Process startWithPipes() throws IOException {
    return track(processBuilder().redirectErrorStream(true).start());
  }

  /** The full command line (java, JVM options, classpath, main class, arguments). */
  public List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  private ProcessBuilder processBuilder() {
    ProcessBuilder pb = new ProcessBuilder(command());
    if (workingDir != null) pb.directory(workingDir.toFile());
    environment.forEach((name, value) -> {
      if (value == null) pb.environment().remove(name);
      else pb.environment().put(name, value);
    });
    return pb;
  }

  private static Process track(Process p) {
    CHILDREN.add(p);
    p.onExit().thenRun(() -> CHILDREN.remove(p));
    return p;
  }

  /** SIGTERM, a grace period, then SIGKILL. */
  public static void stop(Process p, long graceMillis) {
    if (!p.isAlive()) return;
    p.destroy();
    try {
      if (!p.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static void stopAll() {
    for (Process p : CHILDREN) p.destroy();
    for (Process p : CHILDREN) stop(p, 5_000);
  }
}
