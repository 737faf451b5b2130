package io.streamlab.cluster;

import io.streamlab.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.streamlab.pipeline.FlinkConf;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink 1.19 standalone session cluster's configuration and member commands: the JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}), each
 * a JVM of its own running Flink's own entry points from the Flink jars on streamlab's classpath
 * (the same flink-runtime 1.19 that Beam's FlinkRunner submits with, so client and cluster never
 * disagree on versions). TaskManagers load job classes parent-first: streamlab is already on
 * their classpath, so the staged job jar adds nothing that could clash.
 */
final class FlinkSetup {
  static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  /** What Flink's own scripts pass on Java 17 (bin/config.sh, env.java.opts.all). */
  private static final List<String> JAVA17_OPENS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED", "--add-exports=java.management/sun.management=ALL-UNNAMED",
      "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED", "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED",
      "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  private final Path confDir;
  private final List<Path> classpath;
  private final Map<String, String> settings = new LinkedHashMap<>();

  /**
   * @param dir the cluster directory (conf/, checkpoints/, tmp/ go under it)
   * @param slotsPerTaskManager task slots of each TaskManager
   */
  FlinkSetup(Path dir, int rpcPort, int restPort, int slotsPerTaskManager) throws IOException {
    confDir = dir.resolve("flink-conf");
    classpath = stableClasspath(dir);
    // every server socket on loopback: rpc, REST, blob server, shuffle (data) port
    settings.putAll(FlinkConf.listenersOn(FlinkConf.LOOPBACK));
    settings.put("jobmanager.rpc.port", Integer.toString(rpcPort));
    settings.put("rest.port", Integer.toString(restPort));
    settings.put("taskmanager.numberOfTaskSlots", Integer.toString(slotsPerTaskManager));
    settings.put("taskmanager.memory.process.size", "1280m");
    settings.put("taskmanager.memory.managed.size", "64m"); // Beam keeps its state on the heap
    settings.put("jobmanager.memory.process.size", "1024m");
    settings.put("cluster.evenly-spread-out-slots", "true");
    settings.put("classloader.resolve-order", "parent-first");
    settings.put("classloader.check-leaked-classloader", "false");
    // a killed TaskManager is noticed in seconds, and the job restarts from its last checkpoint
    settings.put("heartbeat.interval", "2000");
    settings.put("heartbeat.timeout", "15000");
    settings.put("restart-strategy.type", "fixed-delay");
    settings.put("restart-strategy.fixed-delay.attempts", "1000");
    settings.put("restart-strategy.fixed-delay.delay", "2 s");
    // the REST API's per-subtask metrics (shuffle bytes of a run) refresh every second, not every 10
    settings.put("metrics.fetcher.update-interval", "1000");
    settings.put("state.backend.type", "hashmap");
    settings.put("state.checkpoints.dir", dir.resolve("checkpoints").toUri().toString());
    settings.put("io.tmp.dirs", dir.resolve("tmp").toString());
    settings.put("blob.storage.directory", dir.resolve("tmp").toString());
    settings.put("web.tmpdir", dir.resolve("tmp").toString());
  }

  /** Writes flink-conf.yaml (Flink 1.19 still reads the flat legacy file when config.yaml is absent). */
  void writeConfig() throws IOException {
    Files.createDirectories(confDir);
    Files.createDirectories(Path.of(settings.get("io.tmp.dirs")));
    StringBuilder yaml = new StringBuilder("# written by streamlab cluster up\n");
    settings.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
    Files.writeString(confDir.resolve("flink-conf.yaml"), yaml);
  }

  List<String> jobManagerCommand() {
    return JavaProcess.builder(JOB_MANAGER_MAIN).classpath(classpath)
        .jvmOptions(jvm(List.of("-Xms256m", "-Xmx768m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info")))
        .args(List.of("--configDir", confDir.toString())).command();
  }

  /**
   * The TaskManager's heap, direct and metaspace limits and its derived memory settings, computed
   * as Flink's bin/taskmanager.sh does (BashJavaUtils): TaskManagerRunner refuses to start without.
   */
  List<String> taskManagerCommand(String resourceId) {
    Configuration conf = Configuration.fromMap(settings);
    TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(
        TaskExecutorProcessUtils.getConfigurationMapLegacyTaskManagerHeapSizeToConfigOption(conf,
            TaskManagerOptions.TOTAL_PROCESS_MEMORY));
    List<String> jvm = jvm(List.of(ProcessMemoryUtils.generateJvmParametersStr(spec).trim().split("\\s+")));
    jvm.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
    args.addAll(List.of(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec).trim().split("\\s+")));
    args.addAll(List.of("-D", "taskmanager.resource-id=" + resourceId));
    return JavaProcess.builder(TASK_MANAGER_MAIN).classpath(classpath).jvmOptions(jvm).args(args).command();
  }

  /**
   * This JVM's classpath; when it is streamlab's one jar, a copy of it in the cluster directory:
   * members load classes lazily for days, and a rebuild must not swap the jar under them.
   */
  private static List<Path> stableClasspath(Path dir) throws IOException {
    List<Path> entries = java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .map(Path::of).toList();
    if (entries.size() != 1 || !entries.get(0).toString().endsWith(".jar")) return entries;
    Path copy = Files.createDirectories(dir.resolve("lib")).resolve("streamlab.jar");
    Files.copy(entries.get(0), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return List.of(copy);
  }

  private static List<String> jvm(List<String> extra) {
    List<String> all = new ArrayList<>(JAVA17_OPENS);
    all.addAll(extra);
    return all;
  }
}
