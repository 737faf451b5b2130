package io.streamlab.broker;

import io.streamlab.process.JavaProcess;
import io.streamlab.process.Ports;
import io.streamlab.process.Trees;
import java.io.PrintStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

  /** Attempts at start-up when a port was taken between choosing it and the broker binding it. */
  public static final int START_ATTEMPTS = 3;

  /** Starts a broker with its files under {@code dir} and waits until it serves requests. */
  public static EmbeddedKafka start(Path dir) throws IOException, InterruptedException {
    return start(dir, Ports::freeLoopbackPort, System.out);
  }

  /**
   * As {@link #start(Path)}, with ports from {@code ports}: if the broker exits because one of
   * them was taken before it bound it, it starts again on fresh ones (up to {@link
   * #START_ATTEMPTS} in all) and says so on {@code out}.
   */
  public static EmbeddedKafka start(Path dir, Ports.Source ports, PrintStream out) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path log = dir.resolve("kafka.log");
    for (int attempt = 1; ; attempt++) {
      KafkaNode node = new KafkaNode(1, ports.next(), ports.next());
      Path config = dir.resolve("server.properties");
      // a fresh store after a failed attempt: nothing of a broker that never came up is worth keeping
      if (attempt > 1) Trees.delete(dir.resolve("data"));
      Files.writeString(config, node.serverProperties(List.of(node), dir.resolve("data")));
      Process format = KafkaNode.formatCommand(config, KafkaNode.newClusterId()).startLoggingTo(log);
      if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
        format.destroyForcibly();
        throw new IllegalStateException("formatting the embedded Kafka broker's storage failed; see " + log);
      }
      long logStart = Ports.logSize(log);
      Process broker = KafkaNode.serverCommand(config).startLoggingTo(log);
      EmbeddedKafka kafka = new EmbeddedKafka(broker, node.address(), log);
      try {
        kafka.awaitServing(node.port());
        return kafka;
      } catch (RuntimeException | InterruptedException e) {
        kafka.close();
        if (e instanceof RuntimeException && attempt < START_ATTEMPTS && Ports.bindFailed(log, logStart)) {
          out.printf("[streamlab] the embedded Kafka broker found port %d or %d taken (\"Address already in use\" in %s);"
              + " starting it again on fresh ports (attempt %d of %d)%n", node.port(), node.controllerPort(), log,
              attempt + 1, START_ATTEMPTS);
          continue;
        }
        throw e;
      }
    }
  }

  private void awaitServing(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the embedded Kafka broker exited with code " + process.exitValue() + "; see " + logFile);
      }
      // A plain TCP connect first: an admin client pointed at a port nobody listens on yet
      // logs a warning per retry, which would bury streamlab's own start-up lines.
      // Then one bounded cluster query (Topics.brokers), so that a port held by another program
      // cannot keep the probe from seeing the broker's exit.
      try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
        Topics.brokers(bootstrapServers);
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
