package io.streamlab.bench;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * {@code streamlab run}: broker up (embedded unless one is given), ingestion started as its own
 * process, the generator run for the duration at the rate, ingestion drained, the table verified,
 * and one summary printed and saved in the run directory.
 */
public final class LabRun {
  /**
   * @param ingestArgs the flags for the {@code streamlab ingest} child, except broker, topic,
   *     store and status flags, which the run sets
   */
  public record Config(Path runDir, String bootstrapServers, int partitions, String table,
      EventGenerator.Config generator, List<String> ingestArgs, Duration drainTimeout,
      Duration progressInterval) {}

  private final Config config;
  private final PrintStream out;

  public LabRun(Config config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  public RunResult execute() throws Exception {
    Path runDir = Files.createDirectories(config.runDir());
    out.println("[streamlab] run directory " + runDir);
    EmbeddedKafka embedded = null;
    try {
      String bootstrap = config.bootstrapServers();
      if (bootstrap == null) {
        long t0 = System.nanoTime();
        embedded = EmbeddedKafka.start(runDir.resolve("kafka"));
        bootstrap = embedded.bootstrapServers();
        out.printf("[streamlab] embedded Kafka broker up at %s in %.1f s%n", bootstrap, (System.nanoTime() - t0) / 1e9);
      }
      String topic = config.generator().topic();
      Topics.create(bootstrap, topic, config.partitions());
      Path db = runDir.resolve("streamlab.duckdb");
      return generateAndIngest(bootstrap, topic, StoreSpec.duckdb(db), runDir);
    } finally {
      if (embedded != null) embedded.close();
    }
  }

  private RunResult generateAndIngest(String bootstrap, String topic, StoreSpec store, Path runDir) throws Exception {
    Path ingestLog = runDir.resolve("ingest.log");
    Path latencyLog = runDir.resolve("latency.hlog");
    List<String> args = new ArrayList<>(List.of("ingest",
        "--bootstrapServers=" + bootstrap, "--topic=" + topic, "--db=" + store.location(),
        "--table=" + config.table(), "--statusIntervalMs=1000", "--latencyLog=" + latencyLog,
        "--stopOnStdinClose"));
    args.addAll(config.ingestArgs());
    GeneratorStats gen;
    Duration cpu;
    long windowNanos;
    IngestStatus last;
    try (IngestProcess ingest = new IngestProcess(args, ingestLog)) {
      out.println("[streamlab] starting ingestion (log: " + ingestLog + ")");
      ingest.awaitReady(Duration.ofMinutes(3), ingestLog);
      Duration cpuAtStart = ingest.cpuTime();
      long start = System.nanoTime();
      EventGenerator generator = new EventGenerator(config.generator().withBootstrapServers(bootstrap));
      Progress progress = new Progress(out, generator.stats(), ingest::status, start);
      out.printf("[streamlab] generating %s for %s, ingesting into %s table %s%n",
          rateText(config.generator().ratePerSec()), config.generator().duration(), store, config.table());
      Thread genThread = new Thread(() -> {
        try {
          generator.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "generator");
      genThread.start();
      long nextProgress = System.nanoTime() + config.progressInterval().toNanos();
      while (genThread.isAlive()) {
        genThread.join(100);
        if (System.nanoTime() >= nextProgress) {
          progress.print("generate");
          nextProgress += config.progressInterval().toNanos();
        }
        if (!ingest.isAlive()) {
          generator.stop();
          throw new IllegalStateException("ingestion died during the run; see " + ingestLog);
        }
      }
      gen = generator.stats();
      last = drain(ingest, gen, progress, ingestLog);
      windowNanos = System.nanoTime() - start;
      cpu = ingest.cpuTime().minus(cpuAtStart);
    }
    Histogram latency = LatencyLog.read(latencyLog);
    Verification v;
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, config.table(), gen.sequencesPerProducer());
    }
    RunResult result = new RunResult(gen, v, last.bytesRead(), cpu, windowNanos / 1e9, latency,
        Runtime.getRuntime().availableProcessors());
    result.print(out);
    result.save(runDir);
    return result;
  }

  /** Waits until every acknowledged event is in the table (or dead-lettered), or progress stops. */
  private IngestStatus drain(IngestProcess ingest, GeneratorStats gen, Progress progress, Path ingestLog)
      throws InterruptedException {
    out.printf("[streamlab] generator done: %,d events sent, %,d acknowledged; draining%n", gen.sent(), gen.acked());
    long lastChange = System.nanoTime();
    long lastDone = -1;
    long nextProgress = System.nanoTime() + config.progressInterval().toNanos();
    while (true) {
      IngestStatus s = ingest.status();
      long done = s.rowsWritten() + s.failed();
      if (done >= gen.acked()) {
        Thread.sleep(1_200); // one more status interval: rows still in flight show up as duplicates
        return ingest.status();
      }
      if (done != lastDone) {
        lastDone = done;
        lastChange = System.nanoTime();
      } else if (System.nanoTime() - lastChange > config.drainTimeout().toNanos()) {
        out.printf("[streamlab] drain stopped making progress for %d s with %,d of %,d events in; verifying what is there%n",
            config.drainTimeout().toSeconds(), done, gen.acked());
        return s;
      }
      if (!ingest.isAlive()) throw new IllegalStateException("ingestion died while draining; see " + ingestLog);
      if (System.nanoTime() >= nextProgress) {
        progress.print("drain");
        nextProgress += config.progressInterval().toNanos();
      }
      Thread.sleep(100);
    }
  }

  private static String rateText(double rate) {
    return rate <= 0 ? "as fast as possible" : String.format("%,.0f events/s", rate);
  }
}
