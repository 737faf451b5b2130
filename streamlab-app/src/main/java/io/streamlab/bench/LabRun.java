package io.streamlab.bench;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.metrics.LatencyLog;
import io.streamlab.pipeline.IngestSettings;
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
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

  /**
   * @param ingestArgs the flags for the {@code streamlab ingest} child, except broker, topic,
   *     store and status flags, which the run sets
   * @param store the table store (null: a DuckDB file in the run directory)
   */
  public record Config(Path runDir, String bootstrapServers, int partitions, String table,
      EventGenerator.Config generator, Duration warmup, List<String> ingestArgs, Duration drainTimeout,
      Duration progressInterval, StoreSpec store, Chaos chaos) {}


  private final Config config;
  private final PrintStream out;
  private final java.util.function.Function<StoreSpec, List<String>> storeArgs;

  /** @param storeArgs the ingest flags naming a store (the CLI's, so the two never disagree) */
  public LabRun(Config config, PrintStream out, java.util.function.Function<StoreSpec, List<String>> storeArgs) {
    this.config = config;
    this.out = out;
    this.storeArgs = storeArgs;
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
      StoreSpec store = config.store() != null ? config.store() : StoreSpec.duckdb(runDir.resolve("streamlab.duckdb"));
      return generateAndIngest(bootstrap, topic, store, runDir);
    } finally {
      if (embedded != null) embedded.close();
    }
  }

  private RunResult generateAndIngest(String bootstrap, String topic, StoreSpec store, Path runDir) throws Exception {
    Path ingestLog = runDir.resolve("ingest.log");
    Path latencyLog = runDir.resolve("latency.hlog");
    List<String> args = new ArrayList<>(List.of("ingest",
        "--bootstrapServers=" + bootstrap, "--topic=" + topic,
        "--table=" + config.table(), "--statusIntervalMs=1000", "--latencyLog=" + latencyLog,
        "--stopOnStdinClose"));
    args.addAll(storeArgs.apply(store));
    args.addAll(config.ingestArgs());
    EventGenerator.Config measured = config.generator().withBootstrapServers(bootstrap);
    Map<Integer, Long> expected = new HashMap<>();
    GeneratorStats gen;
    Duration cpu;
    long windowNanos, measuredFromMillis, doneBefore;
    IngestStatus atStart, last;
    int kills;
    try (RestartableIngest ingest = new RestartableIngest(args, ingestLog)) {
      out.println("[streamlab] starting ingestion (log: " + ingestLog + ")");
      ingest.awaitReady(READY_TIMEOUT);
      long acked = 0;
      if (!config.warmup().isZero()) {
        GeneratorStats warm = generate("warm-up", measured.forPhase(config.warmup(), WARMUP_PRODUCER_BASE), ingest, ingestLog, 0, 0);
        expected.putAll(warm.sequencesPerProducer());
        acked = warm.acked();
        drain(ingest, acked, ingestLog, "warm-up", bootstrap, topic, store);
      }
      measuredFromMillis = ingest.markLatencyInterval();
      atStart = ingest.status();
      doneBefore = atStart.rowsWritten() + atStart.failed();
      Duration cpuAtStart = ingest.cpuTime();
      long start = System.nanoTime();
      Throwable[] faultFailure = new Throwable[1];
      Thread faults = config.chaos().clusterFaults().isEmpty() ? null : ClusterFault.schedule(
          config.chaos().clusterFaults(), config.chaos().clusterDir(), measured.duration(), out, faultFailure);
      gen = generate("measure", measured, ingest, ingestLog, doneBefore, config.chaos().ingestKills());
      if (faults != null) faults.join();
      if (faultFailure[0] != null) throw new IllegalStateException("a --chaos fault failed: " + faultFailure[0], faultFailure[0]);
      expected.putAll(gen.sequencesPerProducer());
      last = drain(ingest, acked + gen.acked(), ingestLog, "measure", bootstrap, topic, store);
      windowNanos = System.nanoTime() - start;
      cpu = ingest.cpuTime().minus(cpuAtStart);
      kills = ingest.kills();
    }
    Histogram latency = LatencyLog.read(latencyLog, measuredFromMillis);
    Verification v;
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      v = TableVerifier.verify(c, config.table(), expected, measuredFromMillis * 1000);
    }
    RunResult result = new RunResult(gen, v, last.bytesRead() - atStart.bytesRead(), cpu, windowNanos / 1e9,
        latency, Runtime.getRuntime().availableProcessors(), last.bytesShuffled() - atStart.bytesShuffled(), kills);
    for (ClusterFault f : config.chaos().clusterFaults()) out.println("[streamlab] chaos injected: " + f);
    result.print(out);
    result.save(runDir);
    return result;
  }

  /**
   * Runs one generator phase with progress lines; returns once every event is acknowledged.
   *
   * @param kills kill -9 and restart the ingestion this many times, at random moments of the phase
   */
  private GeneratorStats generate(String phase, EventGenerator.Config cfg, RestartableIngest ingest, Path ingestLog,
      long ingestedBefore, int kills) throws InterruptedException, java.io.IOException {
    long phaseStart = System.nanoTime();
    long[] killAt = new long[kills];
    java.util.Random random = new java.util.Random();
    for (int i = 0; i < kills; i++) {
      killAt[i] = phaseStart + (long) ((0.1 + 0.8 * random.nextDouble()) * cfg.duration().toNanos());
    }
    java.util.Arrays.sort(killAt);
    int nextKill = 0;
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
    while (genThread.isAlive() || nextKill < kills) {
      genThread.join(100);
      if (nextKill < kills && (System.nanoTime() >= killAt[nextKill] || !genThread.isAlive())) {
        nextKill++;
        out.printf("[streamlab] %s: chaos: kill -9 of the ingestion (%d of %d), restarting it%n", phase, nextKill, kills);
        ingest.killAndRestart(READY_TIMEOUT);
        out.printf("[streamlab] %s: chaos: ingestion restarted%n", phase);
      }
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
    return stats;
  }

  /**
   * Waits until {@code target} events are in the table (or dead-lettered), or progress stops.
   * After restarts (--chaos) rows written twice inflate the counters, so then the run also waits
   * until the ingestion's committed Kafka offsets reach the end of the topic: offsets are
   * committed only when every row read before them is in the table.
   */
  private IngestStatus drain(RestartableIngest ingest, long target, Path ingestLog, String phase,
      String bootstrap, String topic, StoreSpec store) throws Exception {
    long lastChange = System.nanoTime();
    long lastDone = -1;
    while (true) {
      IngestStatus s = ingest.status();
      long done = s.rowsWritten() + s.failed();
      if (done >= target && (!config.chaos().any()
          || Topics.committedLag(bootstrap, IngestSettings.consumerGroup(topic, store, config.table()), topic) == 0)) {
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
      Thread.sleep(ingest.kills() == 0 ? 100 : 500);
    }
  }

  private static String rateText(double rate) {
    return rate <= 0 ? "as fast as possible" : String.format("%,.0f events/s", rate);
  }
}
