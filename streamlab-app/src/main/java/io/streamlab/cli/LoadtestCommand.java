package io.streamlab.cli;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.loadtest.BrokerDriver;
import io.streamlab.loadtest.ClientSettings;
import io.streamlab.loadtest.KafkaDriver;
import io.streamlab.loadtest.Loadtest;
import io.streamlab.loadtest.LoadtestReport;
import io.streamlab.loadtest.LoadtestSettings;
import io.streamlab.loadtest.MessageSizes;
import io.streamlab.loadtest.PointResult;
import io.streamlab.loadtest.PubSubDriver;
import io.streamlab.loadtest.PubSubEndpoint;
import io.streamlab.loadtest.Role;
import io.streamlab.loadtest.Sweep;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "loadtest", mixinStandardHelpOptions = true,
    description = {"Broker client throughput and latency: publishers and subscribers against Kafka (embedded or "
        + "--bootstrapServers) or Google Pub/Sub (--driver=pubsub, honours PUBSUB_EMULATOR_HOST). Prints one line "
        + "per interval and a summary per point; writes loadtest.csv, loadtest.json and loadtest.html to --outDir. "
        + "Exit code 1 when a message went missing, was duplicated or failed to publish."})
final class LoadtestCommand implements Callable<Integer> {
  @Option(names = "--driver", defaultValue = "kafka", description = "kafka or pubsub. Default: ${DEFAULT-VALUE}.")
  String driver;

  @Option(names = "--bootstrapServers",
      description = "Kafka bootstrap servers; default: an embedded single-node Kafka 4.1 broker started for the test.")
  String bootstrapServers;

  @Option(names = "--pubsubProject", defaultValue = "streamlab",
      description = "Google Cloud project of the Pub/Sub topic (any name with the emulator). Default: ${DEFAULT-VALUE}.")
  String pubsubProject;

  @Option(names = "--role", defaultValue = "both",
      description = "both, publish (producer-only) or subscribe (consumer-only, against an existing --topic and "
          + "--subscription). Default: ${DEFAULT-VALUE}.")
  String role;

  @Option(names = "--topic", description = "Topic; default loadtest-<time> (a sweep adds -<point> per point).")
  String topic;

  @Option(names = "--subscription",
      description = "Subscription (Kafka: consumer group); default loadtest-<time>. A new one reads from the start.")
  String subscription;

  @Option(names = "--partitions", defaultValue = "4", description = "Kafka partitions of a new topic. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Option(names = "--messageSize", defaultValue = "1KB",
      description = "Payload size: fixed (1KB), uniform range (512B-64KB) or weighted mix (1KB:80,1MB:20); "
          + "KB/MB are powers of 1000. Default: ${DEFAULT-VALUE}.")
  String messageSize;

  @Option(names = "--publishers", defaultValue = "1", description = "Publisher clients. Default: ${DEFAULT-VALUE}.")
  int publishers;

  @Option(names = "--subscribers", defaultValue = "1", description = "Subscriber clients. Default: ${DEFAULT-VALUE}.")
  int subscribers;

  @Option(names = "--cores", description = "Cores given to the test: publishing threads = cores x --threadsPerCore. "
      + "Default: this machine's cores.")
  Integer cores;

  @Option(names = "--threadsPerCore", defaultValue = "1",
      description = "Publishing threads per core, each with its own producer id and sequence. Default: ${DEFAULT-VALUE}.")
  int threadsPerCore;

  @Option(names = "--clientThreads", defaultValue = "0",
      description = "Executor threads of each Pub/Sub client; 0 = the client's default. Default: ${DEFAULT-VALUE}.")
  int clientThreads;

  @Option(names = "--batchMaxMessages", defaultValue = "0",
      description = "Most messages per publish batch (Pub/Sub; Kafka has no count limit); 0 = client default. Default: ${DEFAULT-VALUE}.")
  long batchMaxMessages;

  @Option(names = "--batchMaxBytes", defaultValue = "0",
      description = "Most bytes per publish batch (Kafka batch.size); 0 = client default (Kafka 16384, Pub/Sub 1000). "
          + "Default: ${DEFAULT-VALUE}.")
  long batchMaxBytes;

  @Option(names = "--batchMaxDelay", converter = DurationConverter.class,
      description = "Longest wait for a batch to fill (Kafka linger.ms), e.g. 10ms. Default: the client's (Kafka 0 ms "
          + "in kafka-clients 3.9, Pub/Sub 1 ms).")
  Duration batchMaxDelay;

  @Option(names = "--compression", defaultValue = "none",
      description = "none, gzip, snappy, lz4, zstd (Pub/Sub: any but none = gzip). Default: ${DEFAULT-VALUE}.")
  String compression;

  @Option(names = "--maxOutstandingMessages", defaultValue = "0",
      description = "Subscriber flow control: messages (Kafka max.poll.records); 0 = client default. Default: ${DEFAULT-VALUE}.")
  long maxOutstandingMessages;

  @Option(names = "--maxOutstandingBytes", defaultValue = "0",
      description = "Subscriber flow control: bytes (Kafka fetch.max.bytes); 0 = client default. Default: ${DEFAULT-VALUE}.")
  long maxOutstandingBytes;

  @Option(names = "--ratePerSec", defaultValue = "0",
      description = "Target publish rate over all threads, messages/s; 0 = unlimited. With --maxRate the start rate "
          + "(0 = 1000). Default: ${DEFAULT-VALUE}.")
  double ratePerSec;

  @Option(names = "--burnIn", defaultValue = "5s", converter = DurationConverter.class,
      description = "Run this long before measuring. Default: ${DEFAULT-VALUE}.")
  Duration burnIn;

  @Option(names = "--window", defaultValue = "20s", converter = DurationConverter.class,
      description = "Measurement window. Default: ${DEFAULT-VALUE}.")
  Duration window;

  @Option(names = "--backlogBuild", defaultValue = "0s", converter = DurationConverter.class,
      description = "Before burn-in, publish this long with no subscriber, then time the drain; 0s = no backlog phase. "
          + "Default: ${DEFAULT-VALUE}.")
  Duration backlogBuild;

  @Option(names = "--interval", defaultValue = "1s", converter = DurationConverter.class,
      description = "One console line and time-series point per interval. Default: ${DEFAULT-VALUE}.")
  Duration interval;

  @Option(names = "--drainTimeout", defaultValue = "30s", converter = DurationConverter.class,
      description = "After publishing, wait at most this long without progress for the rest. Default: ${DEFAULT-VALUE}.")
  Duration drainTimeout;

  @Option(names = "--sweep", defaultValue = "none",
      description = "none, cores (1..--cores), threads (threadsPerCore 1,2,4,8,16) or message-size (1KB,10KB,100KB,1MB,9MB): "
          + "one run per point. Default: ${DEFAULT-VALUE}.")
  String sweep;

  @Option(names = "--maxRate", defaultValue = "false",
      description = "Search the highest publish rate whose backlog stays bounded (doubling from --ratePerSec, then "
          + "bisecting; a failing first rate is tried once more). Default: ${DEFAULT-VALUE}.")
  boolean maxRate;

  @Option(names = "--maxRateBisections", defaultValue = "3",
      description = "Bisection steps of --maxRate after the first failing rate. Default: ${DEFAULT-VALUE}.")
  int maxRateBisections;

  @Option(names = "--firstProducerId", defaultValue = "0",
      description = "First producer id; give publishing processes sharing a topic distinct ranges. Default: ${DEFAULT-VALUE}.")
  int firstProducerId;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed of sizes and payloads. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--outDir", description = "Where the reports go; default runs/loadtest-<time>.")
  Path outDir;

  @Override
  public Integer call() throws Exception {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path dir = outDir != null ? outDir : Path.of("runs", "loadtest-" + stamp);
    int machineCores = Runtime.getRuntime().availableProcessors();
    LoadtestSettings settings = new LoadtestSettings(parseRole(), topic != null ? topic : "loadtest-" + stamp,
        subscription != null ? subscription : "loadtest-" + stamp, partitions, MessageSizes.parse(messageSize),
        publishers, subscribers, cores != null ? cores : machineCores, threadsPerCore, ratePerSec, burnIn, window,
        backlogBuild, interval, drainTimeout, clientSettings(), firstProducerId, seed);
    Sweep sweepKind = Sweep.parse(sweep);
    if (maxRate && sweepKind != Sweep.NONE) throw new IllegalArgumentException("--maxRate and --sweep cannot be combined");
    PrintStream out = System.out;

    EmbeddedKafka embedded = null;
    try {
      BrokerDriver brokerDriver = switch (driver.toLowerCase()) {
        case "kafka" -> {
          String servers = bootstrapServers;
          if (servers == null) {
            out.println("starting an embedded Kafka broker under " + dir.resolve("kafka"));
            embedded = EmbeddedKafka.start(dir.resolve("kafka"));
            servers = embedded.bootstrapServers();
          }
          yield new KafkaDriver(servers, clientSettings());
        }
        case "pubsub" -> new PubSubDriver(pubsubProject, clientSettings(), PubSubEndpoint.fromEnvironment(System.getenv()));
        default -> throw new IllegalArgumentException("--driver must be kafka or pubsub; was '" + driver + "'");
      };
      try (brokerDriver) {
        Loadtest test = new Loadtest(brokerDriver, out);
        LoadtestReport report = maxRate
            ? test.maxRate(ratePerSec > 0 ? settings : settings.withRate(1000), maxRateBisections, 12)
            : test.sweep(settings, sweepKind, settings.cores());
        Loadtest.write(report, dir);
        out.println("reports: " + dir.resolve("loadtest.csv") + ", loadtest.json, loadtest.html (" + report.machine() + ")");
        boolean clean = report.points().stream()
            .allMatch(r -> r.missing() == 0 && r.duplicates() == 0 && r.publishErrors() == 0);
        return clean ? 0 : 1;
      }
    } finally {
      if (embedded != null) embedded.close();
    }
  }

  private Role parseRole() {
    try {
      return Role.valueOf(role.trim().toUpperCase());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--role must be both, publish or subscribe; was '" + role + "'");
    }
  }

  private ClientSettings clientSettings() {
    return new ClientSettings(batchMaxMessages, batchMaxBytes, batchMaxDelay, compression, maxOutstandingMessages,
        maxOutstandingBytes, clientThreads);
  }
}
