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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code streamlab run}: broker up (embedded unless one is given), ingestion started as its own
 * process, a warm-up (generated, ingested and drained, verified but not measured: JIT and Flink
 * start-up would otherwise dominate short runs), then the measured generation at the rate for
 * the duration, a drain, verification of the table, and one summary printed and saved.
 */
public final class LabRun {
  /** Producer ids of the warm-up phase start here, clear of the measured phase's. */
  static final int WARMUP_PRODUCER_BASE = 1_000;

  /**
   * @param ingestArgs the flags for the {@code streamlab ingest} child, except broker, topic,
   *     store and status flags, which the run sets
   */
  public record Config(Path runDir, String bootstrapServers, int partitions, String table,
      EventGenerator.Config generator, Duration warmup, List<String> ingestArgs, Duration drainTimeout,
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
    EventGenerator.Config measured = config.generator().withBootstrapServers(bootstrap);
    Map<Integer, Long> expected = new HashMap<>();
    GeneratorStats gen;
    Duration cpu;
    long windowNanos, measuredFromMillis, doneBefore;
    IngestStatus atStart, last;
    try (IngestProcess ingest = new IngestProcess(args, ingestLog)) {
      out.println("[streamlab] starting ingestion (log: " + ingestLog + ")");
      ingest.awaitReady(Duration.ofMinutes(3), ingestLog);
      long acked = 0;
      if (!config.warmup().isZero()) {
        Progress warm = generate("warm-up", measured.forPhase(config.warmup(), WARMUP_PRODUCER_BASE), ingest, ingestLog, 0);
        expected.putAll(warm.generated().sequencesPerProducer());
        acked = warm.generated().acked();
        drain(ingest, acked, ingestLog, "warm-up", warm);
      }
      measuredFromMillis = ingest.markLatencyInterval();
      atStart = ingest.status();
      doneBefore = atStart.rowsWritten() + atStart.failed();
      Duration cpuAtStart = ingest.cpuTime();
      long start = System.nanoTime();
      Progress measure = generate("measure", measured, ingest, ingestLog, doneBefore);
      gen = measure.generated();
      expected.putAll(gen.sequencesPerProducer());
      last = drain(ingest, acked + gen.acked(), ingestLog, "measure", measure);
      windowNanos = System.nanoTime() - start;
      cpu = ingest.cpuTime().minus(cpuAtStart);
    }
    Histogram latency = LatencyLog.read(latencyLog, measuredFromMillis);
    Verification v;
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, config.table(), expected, measuredFromMillis * 1000);
    }
    RunResult result = new RunResult(gen, v, last.bytesRead() - atStart.bytesRead(), cpu, windowNanos / 1e9,
        latency, Runtime.getRuntime().availableProcessors());
    result.print(out);
    result.save(runDir);
    return result;
  }

  /**
   * Runs one generator phase with progress lines; returns once every event is acknowledged,
   * with the phase's progress (its generator counts) for the drain that follows.
   */
  private Progress generate(String phase, EventGenerator.Config cfg, IngestProcess ingest, Path ingestLog,
      long ingestedBefore) throws InterruptedException {
    EventGenerator generator = new EventGenerator(cfg);
    Progress progress = new Progress(out, generator.stats(), ingest::status, ingestedBefore);
    out.printf("[streamlab] %s: generating %s for %d s%n", phase, rateText(cfg.ratePerSec()), cfg.duration().toSeconds());
    Thread genThread = new Thread(() -> {
      try {
        generator.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "generator-" + phase);
    genThread.start();
    long nextProgress = System.nanoTime() + config.progressInterval().toNanos();
    while (genThread.isAlive()) {
      genThread.join(100);
      if (System.nanoTime() >= nextProgress) {
        progress.print(phase);
        nextProgress += config.progressInterval().toNanos();
      }
      if (!ingest.isAlive()) {
        generator.stop();
        throw new IllegalStateException("ingestion died during the run; see " + ingestLog);
      }
    }
    GeneratorStats stats = generator.stats();
    out.printf("[streamlab] %s: %,d events sent, %,d acknowledged; draining%n", phase, stats.sent(), stats.acked());
    return progress;
  }

  /** Waits until {@code target} events are in the table (or dead-lettered), or progress stops. */
  private IngestStatus drain(IngestProcess ingest, long target, Path ingestLog, String phase, Progress progress)
      throws InterruptedException {
    long lastChange = System.nanoTime();
    long nextProgress = lastChange + config.progressInterval().toNanos();
    long lastDone = -1;
    while (true) {
      IngestStatus s = ingest.status();
      long done = s.rowsWritten() + s.failed();
      if (done >= target) {
        Thread.sleep(1_200); // one more status interval: rows still in flight show up as duplicates
        return ingest.status();
      }
      if (done != lastDone) {
        lastDone = done;
        lastChange = System.nanoTime();
      } else if (System.nanoTime() - lastChange > config.drainTimeout().toNanos()) {
        out.printf("[streamlab] %s: no progress for %d s with %,d of %,d events in; verifying what is there%n",
            phase, config.drainTimeout().toSeconds(), done, target);
        return s;
      }
      if (!ingest.isAlive()) throw new IllegalStateException("ingestion died while draining; see " + ingestLog);
      if (System.nanoTime() >= nextProgress) {
        progress.print(phase + "/drain");
        nextProgress += config.progressInterval().toNanos();
      }
      Thread.sleep(100);
    }
  }

  private static String rateText(double rate) {
    return rate <= 0 ? "as fast as possible" : String.format("%,.0f events/s", rate);
  }
}
