package io.streamlab.cli;

import io.streamlab.broker.Topics;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.generator.PubsubSink;
import io.streamlab.loadtest.ClientSettings;
import io.streamlab.loadtest.PubSubDriver;
import io.streamlab.loadtest.PubSubEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "generate", mixinStandardHelpOptions = true, modelTransformer = GenerateCommand.Flags.class,
    description = {"Publish random events from a schema into a Kafka topic (or a Pub/Sub topic, --sink=pubsub) at a target rate, for a "
        + "duration or a count. Every message carries producer id, sequence number and intended send "
        + "time: in Kafka its record key (24 bytes: 'S','L','I',1, then the three numbers big-endian), an envelope "
        + "and a Pub/Sub message as headers or attributes (sl-pid, sl-seq, sl-ts)."})
final class GenerateCommand implements Callable<Integer> {
  /** Where the events go. */
  enum SinkKind { kafka, pubsub }

  @Option(names = "--sink", defaultValue = "kafka",
      description = "kafka (--bootstrapServers) or pubsub (--topic=projects/P/topics/T, an existing topic; the same "
          + "headers as message attributes; the Pub/Sub client's default batching; PUBSUB_EMULATOR_HOST honoured). "
          + "Default: ${DEFAULT-VALUE}.")
  SinkKind sink;

  @Option(names = "--bootstrapServers", description = "--sink=kafka: Kafka bootstrap servers, host:port[,host:port] (required).")
  String bootstrapServers;

  @Option(names = "--topic", defaultValue = "events",
      description = "Topic to publish to (--sink=pubsub: projects/P/topics/T). Default: ${DEFAULT-VALUE}.")
  String topic;

  @Option(names = "--partitions", defaultValue = "4",
      description = "Partitions if the topic has to be created. Default: ${DEFAULT-VALUE}.")
  int partitions;

  @Option(names = "--count", defaultValue = "0", description = "Events to send in total; 0 = until --duration ends.")
  long count;

  @Option(names = "--duration", converter = DurationConverter.class,
      description = "How long to generate, e.g. 30s (default: until --count is reached).")
  Duration duration;

  @Option(names = "--producerIdBase", paramLabel = "ID",
      description = "Producer id of the first producer (the others follow: ID..ID+producers-1). Default: a random "
          + "multiple of 1024 below 2^29, printed at the start, so two generate calls into one topic never share an "
          + "identity (which an exactly-once ingestion would drop as a replay).")
  Integer producerIdBase;

  /** Producer ids stay below this: as 4 header bytes they can never read as ASCII digits (see EventHeaders). */
  static final int MAX_PRODUCER_ID = 1 << 29;

  @Spec CommandSpec spec;

  /** The schema flags, as ingest and run have them. */
  public static final class Flags extends BeamFlags.Transformer {
    public Flags() {
      super(SchemaOptions.class);
    }
  }

  @Mixin GeneratorOptions generator;

  @Override
  public Integer call() throws Exception {
    int base = producerIdBase != null ? producerIdBase
        : 1024 * (1 + new java.security.SecureRandom().nextInt(MAX_PRODUCER_ID / 1024 - 2));
    if (base < 0 || (long) base + generator.producers > MAX_PRODUCER_ID) {
      throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
          "--producerIdBase must be >= 0 and leave room for --producers below " + MAX_PRODUCER_ID + ", got " + base);
    }
    System.out.printf("producer ids %d..%d (--producerIdBase=%d)%n", base, base + generator.producers - 1, base);
    PubSubDriver pubsub = null;
    SchemaOptions schema = BeamFlags.options(spec, SchemaOptions.class);
    EventGenerator.Config config = new EventGenerator.Config(bootstrapServers, topic, SchemaOptions.load(schema),
        schema.getTransportFormat(), generator.toSettings(), generator.seed, generator.producers, base,
        generator.ratePerSec, count, duration, Map.of());
    EventGenerator g;
    if (sink == SinkKind.pubsub) {
      if (bootstrapServers != null) throw new IllegalArgumentException("--sink=pubsub publishes to --topic, not --bootstrapServers");
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("projects/([^/]+)/topics/([^/]+)").matcher(topic);
      if (!m.matches()) throw new IllegalArgumentException("--sink=pubsub needs --topic=projects/PROJECT/topics/TOPIC, got: " + topic);
      pubsub = new PubSubDriver(m.group(1), ClientSettings.DEFAULTS, PubSubEndpoint.fromEnvironment(System.getenv()));
      PubSubDriver driver = pubsub;
      g = new EventGenerator(config, () -> new PubsubSink(driver, m.group(2)));
    } else {
      if (bootstrapServers == null) throw new IllegalArgumentException("--sink=kafka needs --bootstrapServers=host:port");
      Topics.create(bootstrapServers, topic, partitions);
      g = new EventGenerator(config);
    }
    long start = System.nanoTime();
    Thread progress = new Thread(() -> {
      long last = 0;
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(5_000);
        } catch (InterruptedException e) {
          return;
        }
        long acked = g.stats().acked();
        System.out.printf("[%4.0fs] %,9.0f events/s, %,d acknowledged%n", (System.nanoTime() - start) / 1e9, (acked - last) / 5.0, acked);
        last = acked;
      }
    }, "progress");
    progress.setDaemon(true);
    progress.start();
    GeneratorStats s = g.run();
    progress.interrupt();
    if (pubsub != null) pubsub.close();
    double secs = (System.nanoTime() - start) / 1e9;
    System.out.printf("generated %,d events (%,d acknowledged, %,d errors) in %,d messages, %.1f MB, in %.1f s: "
            + "%,.0f events/s, %.1f MB/s; producer ids %d..%d%n",
        s.sent(), s.acked(), s.errors(), s.messages(), s.bytes() / 1e6, secs, s.acked() / secs, s.bytes() / 1e6 / secs,
        base, base + generator.producers - 1);
    return s.errors() == 0 ? 0 : 1;
  }
}
