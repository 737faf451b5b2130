package io.streamlab.bench;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.generator.EventGenerator;
import io.streamlab.process.Trees;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** A Kafka topic on the broker of {@code bootstrapServers}, or on an embedded broker started for the run when null. */
final class KafkaTransport implements Transport {
  private final int partitions;
  private String bootstrap;
  private String topic;
  private EmbeddedKafka embedded;
  private Path runDir;
  private PrintStream out;
  /** Closes the embedded broker and removes its data when the run is interrupted (Ctrl-C, SIGTERM). */
  private Thread onInterrupt;

  KafkaTransport(String bootstrapServers, int partitions) {
    this.bootstrap = bootstrapServers;
    this.partitions = partitions;
  }

  @Override
  public void open(Path runDir, String topic, PrintStream out) throws Exception {
    this.runDir = runDir;
    this.topic = topic;
    this.out = out;
    if (bootstrap == null) {
      long t0 = System.nanoTime();
      embedded = EmbeddedKafka.start(runDir.resolve("kafka"));
      // the broker's data is gigabytes after a long run: an interrupted run must not leave it behind
      onInterrupt = new Thread(this::close, "broker-data-cleanup");
      Runtime.getRuntime().addShutdownHook(onInterrupt);
      bootstrap = embedded.bootstrapServers();
      out.printf("[streamlab] embedded Kafka broker up at %s in %.1f s%n", bootstrap, (System.nanoTime() - t0) / 1e9);
    }
    Topics.create(bootstrap, topic, partitions);
  }

  @Override
  public EventGenerator generator(EventGenerator.Config config) {
    return new EventGenerator(config.withBootstrapServers(bootstrap));
  }

  @Override
  public List<String> sourceArgs() {
    return List.of("--bootstrapServers=" + bootstrap, "--topic=" + topic);
  }

  @Override
  public long unacknowledged(String group) {
    try {
      return Topics.committedLag(bootstrap, group, topic);
    } catch (Exception e) {
      return -1; // not known yet: keep waiting
    }
  }

  @Override
  public synchronized void close() {
    if (embedded == null) return;
    if (Thread.currentThread() != onInterrupt) {
      try {
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs or has run: it waits for this call, then finds nothing to do
      }
    }
    embedded.close();
    embedded = null;
    // The broker's log is every event again (~1 KB each: gigabytes for a long drain) and of no use
    // once the table is verified; its kafka.log stays for a post-mortem.
    Path data = runDir.resolve("kafka").resolve("data");
    long bytes = Trees.size(data);
    if (Trees.deleteQuietly(data)) {
      out.printf("[streamlab] removed the embedded broker's data (%,.0f MB) from the run directory%n", bytes / 1e6);
    }
  }
}
