package io.streamlab.broker;

import io.streamlab.process.JavaProcess;
import io.streamlab.process.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    int port = Ports.freeLoopbackPort();
    int controllerPort = Ports.freeLoopbackPort();
    KafkaNode node = new KafkaNode(1, port, controllerPort);
    Path config = dir.resolve("server.properties");
    Files.writeString(config, node.serverProperties(List.of(node), dir.resolve("data")));
    Path log = dir.resolve("kafka.log");
    Process format = KafkaNode.formatCommand(config, KafkaNode.newClusterId()).startLoggingTo(log);
    if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new IllegalStateException("formatting the embedded Kafka broker's storage failed; see " + log);
    }
    Process broker = KafkaNode.serverCommand(config).startLoggingTo(log);
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
}
