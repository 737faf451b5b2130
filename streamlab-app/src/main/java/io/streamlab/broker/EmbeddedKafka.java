package io.streamlab.broker;

import io.streamlab.process.JavaProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * A real single-node Kafka broker (KRaft: broker and controller in one process), started in its
 * own JVM from the Kafka 4.x jars streamlab carries, bound to 127.0.0.1 on free ports, with its
 * data under the given directory. Stopped by {@link #close()}, or on Ctrl-C by the shutdown hook
 * of {@link JavaProcess}.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private final Process process;
  private final String bootstrapServers;
  private final Path logFile;

  private EmbeddedKafka(Process process, String bootstrapServers, Path logFile) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.logFile = logFile;
  }

  /** Starts a broker with its files under {@code dir} and waits until it serves requests. */
  public static EmbeddedKafka start(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    List<Path> classpath = BrokerLibrary.classpath();
    int port = freePort();
    int controllerPort = freePort();
    Path config = dir.resolve("server.properties");
    Files.writeString(config, String.join("\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "inter.broker.listener.name=PLAINTEXT",
        "log.dirs=" + dir.resolve("data").toAbsolutePath(),
        "num.partitions=4",
        "auto.create.topics.enable=false",
        "offsets.topic.replication.factor=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        // one machine shares its cores with the pipeline: keep the broker's thread pools small
        "num.network.threads=2",
        "num.io.threads=4",
        ""));
    Path log = dir.resolve("kafka.log");
    List<String> jvm = List.of("-Xms256m", "-Xmx1g", "-XX:+UseG1GC",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    Process format = JavaProcess.builder("kafka.tools.StorageTool").classpath(classpath).jvmOptions(jvm)
        .args(List.of("format", "--ignore-formatted", "-t", clusterId(), "-c", config.toString()))
        .startLoggingTo(log);
    if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new IllegalStateException("formatting the embedded Kafka broker's storage failed; see " + log);
    }
    Process broker = JavaProcess.builder("kafka.Kafka").classpath(classpath).jvmOptions(jvm)
        .args(List.of(config.toString())).startLoggingTo(log);
    EmbeddedKafka kafka = new EmbeddedKafka(broker, "127.0.0.1:" + port, log);
    try {
      kafka.awaitServing(port);
    } catch (RuntimeException | InterruptedException e) {
      kafka.close();
      throw e;
    }
    return kafka;
  }

  private void awaitServing(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the embedded Kafka broker exited with code " + process.exitValue() + "; see " + logFile);
      }
      // A plain TCP connect first: an admin client pointed at a port nobody listens on yet
      // logs a warning per retry, which would bury streamlab's own start-up lines.
      try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port);
          Admin admin = Topics.admin(bootstrapServers)) {
        admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
        return;
      } catch (Exception notYet) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the embedded Kafka broker did not start within 90 s; see " + logFile);
        }
        Thread.sleep(200);
      }
    }
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  public long pid() {
    return process.pid();
  }

  /** Kill -9, for fault tests: the broker stops without a controlled shutdown. */
  public void kill() {
    process.destroyForcibly();
  }

  /** Controlled shutdown (SIGTERM), killed if it takes longer than 20 s. Idempotent. */
  @Override
  public void close() {
    JavaProcess.stop(process, 20_000);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A KRaft cluster id: a random UUID in URL-safe base64 without padding, as Kafka's Uuid. */
  private static String clusterId() {
    UUID u = UUID.randomUUID();
    ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }
}
