package io.streamlab.cli;

import io.streamlab.broker.Topics;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorStats;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "generate", mixinStandardHelpOptions = true,
    description = {"Publish random events from a schema into a Kafka topic at a target rate, for a "
        + "duration or a count. Every message carries producer id, sequence number and intended send "
        + "time as headers (sl-pid, sl-seq, sl-ts)."})
final class GenerateCommand implements Callable<Integer> {
  @Option(names = "--bootstrapServers", required = true, description = "Kafka bootstrap servers, host:port[,host:port].")
  String bootstrapServers;

  @Option(names = "--topic", defaultValue = "events", description = "Topic to publish to. Default: ${DEFAULT-VALUE}.")
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

  @Mixin SchemaOptions schema;
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
    Topics.create(bootstrapServers, topic, partitions);
    EventGenerator g = new EventGenerator(new EventGenerator.Config(bootstrapServers, topic, schema.load(),
        schema.transportFormat, generator.toSettings(), generator.seed, generator.producers, base,
        generator.ratePerSec, count, duration, Map.of()));
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
    double secs = (System.nanoTime() - start) / 1e9;
    System.out.printf("generated %,d events (%,d acknowledged, %,d errors) in %,d messages, %.1f MB, in %.1f s: "
            + "%,.0f events/s, %.1f MB/s; producer ids %d..%d%n",
        s.sent(), s.acked(), s.errors(), s.messages(), s.bytes() / 1e6, secs, s.acked() / secs, s.bytes() / 1e6 / secs,
        base, base + generator.producers - 1);
    return s.errors() == 0 ? 0 : 1;
  }
}
