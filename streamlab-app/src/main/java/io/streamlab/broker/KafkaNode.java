package io.streamlab.broker;

import io.streamlab.process.JavaProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * One KRaft Kafka node (broker and controller in one process) of a quorum of one or more, bound to
 * 127.0.0.1: its server.properties and the commands that format its storage and run it. Serves
 * both the single embedded broker and the three-broker cluster of {@code streamlab cluster}.
 */
public record KafkaNode(int nodeId, int port, int controllerPort) {
  /** Small heap and G1: one machine shares its cores and memory with the pipeline. */
  public static final List<String> JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

  public String address() {
    return "127.0.0.1:" + port;
  }

  /**
   * server.properties of this node in {@code quorum}: topics get replication factor min(3, nodes)
   * and need min(2, nodes) in-sync replicas for acks=all, so one node of three may die.
   */
  public String serverProperties(List<KafkaNode> quorum, Path dataDir) {
    int replication = Math.min(3, quorum.size());
    int minIsr = Math.min(2, quorum.size());
    String voters = quorum.stream().map(n -> n.nodeId + "@127.0.0.1:" + n.controllerPort).collect(Collectors.joining(","));
    return String.join("\n",
        "process.roles=broker,controller",
        "node.id=" + nodeId,
        "controller.quorum.voters=" + voters,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "inter.broker.listener.name=PLAINTEXT",
        "log.dirs=" + dataDir.toAbsolutePath(),
        "num.partitions=4",
        "auto.create.topics.enable=false",
        "default.replication.factor=" + replication,
        "min.insync.replicas=" + minIsr,
        "offsets.topic.replication.factor=" + replication,
        "transaction.state.log.replication.factor=" + replication,
        "transaction.state.log.min.isr=" + minIsr,
        "share.coordinator.state.topic.replication.factor=" + replication,
        "share.coordinator.state.topic.min.isr=" + minIsr,
        "group.initial.rebalance.delay.ms=0",
        // one machine shares its cores with the pipeline: keep the broker's thread pools small
        "num.network.threads=2",
        "num.io.threads=4",
        // Flush each partition's log every second. Left to the kernel, the log's dirty pages are
        // written out in bursts of tens of seconds' worth at once; on a machine whose disk also
        // holds the table store, every commit there waits behind such a burst, and the pipeline
        // stalls for it. Flushed every second, the writes stay as even as the stream.
        "log.flush.interval.ms=1000",
        "log.flush.scheduler.interval.ms=1000",
        "");
  }

  /** The storage format command (kafka.tools.StorageTool) for a node's config. */
  public static JavaProcess formatCommand(Path config, String clusterId) throws IOException {
    return JavaProcess.builder("kafka.tools.StorageTool").classpath(BrokerLibrary.classpath()).jvmOptions(JVM_OPTIONS)
        // --cluster-id=ID, not "-t ID": a random id can start with "-" and would be read as an option
        .args(List.of("format", "--ignore-formatted", "--cluster-id=" + clusterId, "-c", config.toString()));
  }

  /** The server command (kafka.Kafka) for a node's config. */
  public static JavaProcess serverCommand(Path config) throws IOException {
    return JavaProcess.builder("kafka.Kafka").classpath(BrokerLibrary.classpath()).jvmOptions(JVM_OPTIONS)
        .args(List.of(config.toString()));
  }

  /** A KRaft cluster id: a random UUID in URL-safe base64 without padding, as Kafka's Uuid. */
  public static String newClusterId() {
    UUID u = UUID.randomUUID();
    ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }
}
