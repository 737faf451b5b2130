package io.streamlab.bench;

import io.streamlab.generator.EventGenerator;
import io.streamlab.generator.GeneratorStats;
import io.streamlab.metrics.Clock;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.ratesearch.RateSearch;
import io.streamlab.store.IdentityKey;
import io.streamlab.store.StoreSpec;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import io.streamlab.pipeline.IngestSettings;
import java.io.IOException;
import org.HdrHistogram.Histogram;

/**
 * {@code streamlab run}: broker up (embedded unless one is given), ingestion started as its own
 * process, a burn-in that is verified but not measured (JIT and Flink start-up would otherwise
 * dominate short runs), the measurement window of the chosen {@link RunMode}, a drain,
 * verification of the table, and the figures of the window.
 */
public final class LabRun {
  /** Producer ids of the warm-up phase start here, clear of the measured phases'. */
  static final int WARMUP_PRODUCER_BASE = 1_000;
  /** Producer ids of max-rate step k start at this plus 100 k. */
  static final int STEP_PRODUCER_BASE = 2_000;
  /**
   * Max mode grows the rate by half while sustained, then bisects until within 5 %, in the spirit
   * of OpenMessaging Benchmark's rate controller (README: --mode=max). The loadtest's search
   * doubles and bisects a fixed number of times instead.
   */
  static final double MAX_RATE_GROWTH = 1.5;
  static final double MAX_RATE_PRECISION = 0.05;
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  /**
   * Steady mode: the warm-up hands over to the window once the backlog is at most this long at the
   * rate: a pipeline that keeps up holds about its p50 latency's worth of events in flight. The
   * bound was set when the backlog also held up to a second of the status lines' lag; it is of one
   * moment now ({@link Sampler.Counts}), and the bound is kept: the hand-over also waits
   * {@link #CAUGHT_UP_FOR}, and a tighter bound was not measured.
   */
  static final Duration CAUGHT_UP = Duration.ofMillis(1500);
  /** ... for this long: a backlog that has just shrunk to it may still be the warm-up's catching up. */
  static final Duration CAUGHT_UP_FOR = Duration.ofSeconds(5);

  /**
   * How long a warm-up of {@code warmup} may run at most before the window's generator takes over
   * ({@code LabRun}'s warm-up into a window): the warm-up, then as long again (at least three
   * times {@link #CAUGHT_UP_FOR}) to catch up.
   */
  public static Duration warmUpLimit(Duration warmup) {
    Duration catchUp = CAUGHT_UP_FOR.multipliedBy(3);
    return warmup.plus(warmup.compareTo(catchUp) >= 0 ? warmup : catchUp);
  }

  /** Where a measurement window starts: the latency mark, status, CPU and clock, taken together. */
  private record WindowStart(long markMillis, IngestStatus status, Duration cpu, long nanos,
      StoreServerFigures.Watch server) {
    static WindowStart now(Ingestion ingest, StoreSpec store) throws IOException, InterruptedException {
      return new WindowStart(ingest.markLatencyInterval(), ingest.status(), ingest.cpuTime(), System.nanoTime(),
          StoreServerFigures.Watch.start(store));
    }
  }

  /**
   * @param ingestArgs the flags for the {@code streamlab ingest} child, except broker, topic,
   *     store and status flags, which the run sets
   * @param store the table store (null: a DuckDB file in the run directory)
   * @param chaos faults injected during the measurement window
   * @param ingestion where the pipeline runs ({@link Ingestion#inChildProcess()}, {@link Ingestion#onCluster})
   * @param transport how events reach the ingestion; null: Kafka, the broker of {@code bootstrapServers}
   *     or an embedded one, the topic with {@code partitions}
   */
  public record Config(Path runDir, String bootstrapServers, int partitions, String table,
      EventGenerator.Config generator, Duration warmup, List<String> ingestArgs, Duration drainTimeout,
      Duration progressInterval, RunInfo info, ModeSettings mode, StoreSpec store, Chaos chaos,
      Ingestion.Launcher ingestion, Transport transport) {}

  /**
   * @param preload drain mode: events in the measured backlog
   * @param preloadWarmup drain mode: events ahead of them, ingested before the window starts
   * @param stepDuration max mode: how long each rate is held
   * @param maxP99 max mode: a step whose p99 exceeds this is not sustained
   * @param maxSteps max mode: most steps of the search
   * @param warmupDrain steady mode: drain the warm-up and start the window from an idle pipeline,
   *     instead of running the warm-up straight into the window
   * @param holdShare max mode: after the search, hold this share of the highest sustained rate in
   *     the same pipeline, as a steady run holds its rate, and measure that window (0: none)
   */
  public record ModeSettings(RunMode mode, long preload, long preloadWarmup, Duration stepDuration,
      Duration maxP99, int maxSteps, boolean warmupDrain, double holdShare) {
    public ModeSettings {
      requireShare(holdShare);
    }

    /** The one check of a hold share, the CLI's too: a share in [0, 1]. */
    public static void requireShare(double holdShare) {
      if (!(holdShare >= 0 && holdShare <= 1)) {
        throw new IllegalArgumentException("--holdAtShare must be a share in [0, 1] (0.8 = 80 %), got " + holdShare);
      }
    }

    public static ModeSettings steady() {
      return new ModeSettings(RunMode.STEADY, 0, 0, Duration.ofSeconds(15), Duration.ofSeconds(1), 8, false, 0);
    }
  }

  private final Config config;
  private final PrintStream out;
  private final Function<StoreSpec, List<String>> storeArgs;

  /** @param storeArgs the ingest flags naming a store (the CLI's, so the two never disagree) */
  public LabRun(Config config, PrintStream out, Function<StoreSpec, List<String>> storeArgs) {
    this.config = config;
    this.out = out;
    this.storeArgs = storeArgs;
  }

  public RunResult execute() throws Exception {
    if (config.store() != null) refuseTableWithoutIdentityKey(config.store());
    Path runDir = Files.createDirectories(config.runDir());
    out.println("[streamlab] " + config.info().name() + ": run directory " + runDir);
    out.println("[streamlab] table " + config.table() + (config.store() != null ? " in " + config.store() : ""));
    try (Transport transport = config.transport() != null ? config.transport()
        : new KafkaTransport(config.bootstrapServers(), config.partitions())) {
      transport.open(runDir, config.generator().topic(), out);
      StoreSpec store = config.store() != null ? config.store() : StoreSpec.duckdb(runDir.resolve("streamlab.duckdb"));
      return new Session(transport, store, runDir).run();
    }
  }

  /**
   * An exactly-once run into a shared store refuses, before anything starts, a table that exists
   * without the identity key (the workers would refuse it too, but as a failed job).
   */
  private void refuseTableWithoutIdentityKey(StoreSpec store) throws Exception {
    // BigQuery's exactly-once is BigQueryIO's own (Storage Write API streams), with no identity key
    if (Verdict.Promise.of(config.info()) == Verdict.Promise.EXACTLY_ONCE && store.kind() != StoreSpec.Kind.BIGQUERY) {
      IdentityKey.requireIfExists(store, config.table());
    }
  }

  /** The state of one run between broker start and verification. */
  private final class Session {
    private final StoreSpec store;
    private final Path runDir, ingestLog, latencyLog;
    private final List<String> ingestArgs;
    private final EventGenerator.Config events;
    private final Map<Integer, Long> expected = new HashMap<>();
    private final Set<Integer> measuredProducers = new HashSet<>();
    /** Events acknowledged by finished phases; the running phase's are added live. */
    private final AtomicLong ackedBefore = new AtomicLong();
    private final AtomicReference<GeneratorStats> running = new AtomicReference<>();
    private final List<RateStep> steps = new ArrayList<>();
    /** Max mode: the search's answer, 0 until then (or when no step was sustained). */
    private double highestSustained;
    /** Max mode: the rate held after the search, 0 when none was. */
    private double heldRate;
    /** The window's start, taken where a caught-up warm-up handed over to the window's generator; else null. */
    private WindowStart handOverStart;
    private final Transport transport;
    private Ingestion ingest;
    private Sampler sampler;
    private GeneratorStats preloaded;
    /** Drain mode: every poll of the ingestion while waiting for the backlog, to find where the window starts. */
    private final List<DrainStart.Poll> drainPolls = new ArrayList<>();

    Session(Transport transport, StoreSpec store, Path runDir) {
      this.store = store;
      this.transport = transport;
      this.runDir = runDir;
      this.ingestLog = runDir.resolve("ingest.log");
      this.latencyLog = runDir.resolve("latency.hlog");
      this.events = config.generator();
      ingestArgs = new ArrayList<>(List.of("ingest"));
      ingestArgs.addAll(transport.sourceArgs());
      ingestArgs.addAll(List.of("--table=" + config.table(), "--statusIntervalMs=1000", "--latencyLog=" + latencyLog,
          IngestProtocol.FLAG));
      ingestArgs.addAll(storeArgs.apply(store));
      ingestArgs.addAll(config.ingestArgs());
    }

    RunResult run() throws Exception {
      RunMode mode = config.mode().mode();
      if (mode == RunMode.DRAIN) preload();
      GeneratorStats measured;
      long windowNanos;
      Duration cpu, cpuAtEnd;
      long cpuEndMicros;
      WindowStart start = null;
      StoreServerFigures storeServer;
      IngestStatus last;
      Set<Integer> latencyProducers = measuredProducers; // the window's (a max run's hold: its own)
      Generation window = null;
      try (Ingestion started = config.ingestion().start(
          new Ingestion.Launch(ingestArgs, ingestLog, latencyLog, store, config.table()))) {
        ingest = started;
        sampler = new Sampler(ingest::status, ingest::statusReports, () -> ingest.cpuTime().toNanos() / 1e9,
            this::generatedSoFar);
        out.println("[streamlab] starting ingestion (log: " + ingestLog + ")");
        ingest.awaitReady(READY_TIMEOUT);
        if (mode == RunMode.DRAIN) {
          sampler.phase("warm-up");
          awaitIngested(config.mode().preloadWarmup(), "warm-up");
        } else if (!config.warmup().isZero()) {
          EventGenerator.Config warm = events.forPhase(config.warmup(), WARMUP_PRODUCER_BASE);
          if (mode == RunMode.STEADY && !config.mode().warmupDrain()) window = warmUpInto(warm, events);
          else phase("warm-up", warm, false, 0);
        }
        if (window == null) ingest.awaitStatusSettled(); // a pipeline still at work never settles
        start = windowStart();
        measured = switch (mode) {
          case STEADY -> {
            Throwable[] faultFailure = new Throwable[1];
            Thread faults = config.chaos().clusterFaults().isEmpty() ? null : ClusterFault.schedule(
                config.chaos().clusterFaults(), config.chaos().clusterDir(), events.duration(), out, faultFailure);
            if (window == null) window = start("measure", events, false);
            GeneratorStats stats = phase("measure", window, true, config.chaos().ingestKills(), null);
            if (faults != null) faults.join();
            if (faultFailure[0] != null) {
              throw new IllegalStateException("a --chaos fault failed: " + faultFailure[0], faultFailure[0]);
            }
            for (ClusterFault f : config.chaos().clusterFaults()) out.println("[streamlab] chaos injected: " + f);
            yield stats;
          }
          case DRAIN -> {
            sampler.phase("drain");
            awaitIngested(ackedBefore.get(), "drain");
            yield preloaded;
          }
          case MAX -> {
            GeneratorStats searched = searchMaxRate();
            double share = config.mode().holdShare();
            if (share == 0 || highestSustained == 0) yield searched;
            // the window from here on is the hold's: its latency, rows, CPU and time
            window = holdAt(share);
            start.server().close(); // the search's start is not the window's
            start = windowStart();
            GeneratorStats held = phase("measure", window, true, 0, null);
            latencyProducers = held.sequencesPerProducer().keySet();
            yield held;
          }
        };
        windowNanos = System.nanoTime() - start.nanos();
        cpuAtEnd = ingest.cpuTime();
        cpuEndMicros = Clock.nowMicros();
        cpu = cpuAtEnd.minus(start.cpu());
        ingest.awaitStatusSettled();
        last = ingest.status();
        // after the window's clock and CPU are read: the server's connection is not the window's
        storeServer = start.server().end();
        if (start.server().failure() != null) out.println("[streamlab] " + start.server().failure());
      } finally {
        if (window != null) window.generator().stop(); // a failed run's next generator must not start
        if (sampler != null) sampler.close();
        if (start != null) start.server().close(); // ended already unless the run failed
      }
      // read once ingestion stopped: a stopping ingestion logs its last latency interval
      TableLatency latency = ingest.latency(latencyProducers, start.markMillis(), Long.MAX_VALUE);
      Verification v = ingest.verify(expected, measuredProducers);
      IngestStatus atStart = start.status();
      long windowRows = last.done() - atStart.done();
      long windowStartMicros = start.markMillis() * 1000;
      DrainStart drainStart = mode == RunMode.DRAIN && v.firstWriteMicros() > 0
          ? DrainStart.at(drainPolls, v.firstWriteMicros()) : null;
      if (drainStart != null) {
        // the window is the measured backlog's rows, from the first of them on (see DrainStart)
        windowRows = v.measuredRows();
        windowStartMicros = v.firstWriteMicros();
        cpu = cpuAtEnd.minus(drainStart.cpu());
        atStart = drainStart.status();
      }
      // Payload bytes of the rows ingested in the window: rows times the mean payload size read.
      // Not the bytes read in the window, which in drain mode run ahead of the writes.
      if (windowRows == 0) {
        out.println("[streamlab] the measurement window saw no rows: nothing was ingested");
      }
      long windowBytes = Math.round(ingest.bytesPerEvent(last, measured) * windowRows);
      return new RunResult(config.info(), measured, v, windowRows, windowBytes,
          cpu, windowStartMicros, windowNanos / 1e9, latency.measured(), Runtime.getRuntime().availableProcessors(), last.stagesSince(atStart),
          last.heapPeakBytes(), sampler.samples(),
          latency.perSecond(), List.copyOf(steps),
          last.bytesShuffled() - atStart.bytesShuffled(), ingest.kills(), ingest.figureSources(),
          Verdict.Promise.of(config.info()), last, heldRate, allocatedSince(atStart, last), storeServer, cpuEndMicros);
    }

    /** Heap bytes allocated between two statuses of one process; 0 where unknown (no figure, or a restart between them). */
    private static long allocatedSince(IngestStatus start, IngestStatus end) {
      return start.allocatedBytes() > 0 && end.allocatedBytes() > start.allocatedBytes()
          ? end.allocatedBytes() - start.allocatedBytes() : 0;
    }

    /** Events the broker acknowledged so far, all phases (read by the sampler's thread too). */
    private long generatedSoFar() {
      synchronized (running) { // not amid record(): a phase counted in both terms, or in neither
        GeneratorStats g = running.get();
        return ackedBefore.get() + (g == null ? 0 : g.acked());
      }
    }

    /** Drain mode: the warm-up events, then the measured backlog, into the topic before ingestion starts. */
    private void preload() throws InterruptedException {
      ModeSettings m = config.mode();
      out.printf("[streamlab] drain mode: preloading %,d warm-up + %,d measured events (ingestion not running)%n",
          m.preloadWarmup(), m.preload());
      if (m.preloadWarmup() > 0) {
        record(false, transport.generator(events.forPhase(0, m.preloadWarmup(), null, WARMUP_PRODUCER_BASE)).run());
      }
      preloaded = record(true, transport.generator(events.forPhase(0, m.preload(), null, 0)).run());
      out.printf("[streamlab] drain mode: %,d events in the topic%n", ackedBefore.get());
    }

    /** Keeps what a finished generator phase sent, for verification. */
    private GeneratorStats record(boolean measuredPhase, GeneratorStats stats) {
      expected.putAll(stats.sequencesPerProducer());
      if (measuredPhase) measuredProducers.addAll(stats.sequencesPerProducer().keySet());
      synchronized (running) {
        ackedBefore.addAndGet(stats.acked());
        running.set(null);
      }
      return stats;
    }

    /**
     * Generates one phase with progress lines, then drains it; returns the phase's counts.
     *
     * @param kills kill -9 and restart the ingestion this many times, at random moments of the phase
     */
    private GeneratorStats phase(String name, EventGenerator.Config cfg, boolean measuredPhase, int kills)
        throws InterruptedException, IOException {
      return phase(name, start(name, cfg, false), measuredPhase, kills, null);
    }

    /** Asked every 0.1 s of a warm-up whether to end it there (it stops the warm-up's generator itself). */
    private interface HandOver {
      boolean now() throws IOException, InterruptedException;
    }

    /** A generator at work in a thread of its own. */
    private record Generation(EventGenerator generator, Thread thread, EventGenerator.Config config) {}

    /** Starts {@code cfg}'s generator in its own thread; a {@code gated} one waits for its release. */
    private Generation start(String name, EventGenerator.Config cfg, boolean gated) {
      EventGenerator generator = transport.generator(cfg);
      Thread thread = new Thread(() -> {
        try {
          generator.run(gated);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "generator-" + name);
      thread.start();
      return new Generation(generator, thread, cfg);
    }

    /** The window's start: the one taken at a warm-up's handover if there was one (used once), else now. */
    private WindowStart windowStart() throws IOException, InterruptedException {
      WindowStart s = handOverStart != null ? handOverStart : WindowStart.now(ingest, store);
      handOverStart = null;
      return s;
    }

    /**
     * Steady mode's warm-up: generated like any phase, but not drained. It lasts {@code --warmup}
     * and then until the pipeline has caught up (a backlog of at most {@link #CAUGHT_UP} of
     * events for {@link #CAUGHT_UP_FOR}), at most {@link #warmUpLimit} in all; the window's
     * generator, connected meanwhile, then takes over without a gap. So the window measures the
     * steady state, not a restart from an idle pipeline (after a drain that took seconds to catch
     * up and alone set the window's p99) nor the warm-up's backlog. A pipeline that has not caught up by then has its warm-up drained,
     * and the window starts from idle, as with {@code --warmupDrain}.
     *
     * @return the window's generator: sending if it took over, else connected and waiting for
     *     {@link #phase} to release it
     */
    private Generation warmUpInto(EventGenerator.Config warm, EventGenerator.Config window)
        throws InterruptedException, IOException {
      handOverStart = null;
      Generation next = start("measure", window, true);
      Duration limit = warmUpLimit(warm.duration());
      Generation warmUp = start("warm-up", warm.forPhase(warm.ratePerSec(), 0, limit, warm.firstProducerId()), false);
      long startNanos = System.nanoTime();
      long minNanos = startNanos + warm.duration().toNanos();
      long caughtUp = Math.max(1_000, Math.round(warm.ratePerSec() * CAUGHT_UP.toMillis() / 1000.0));
      long[] backlogAtHandover = {-1};
      Sampler.Counts[] seen = {null};
      long[] sinceNanos = {0}; // since when the backlog has stayed within caughtUp
      HandOver handOver = () -> {
        boolean last = !warmUp.thread().isAlive() || System.nanoTime() - startNanos >= limit.toNanos();
        // once per report (they come once a second), with the generator's count when it came
        Sampler.Counts counts = sampler.latest();
        if (System.nanoTime() < minNanos || (counts == seen[0] && !last)) return false;
        seen[0] = counts;
        long backlog = counts.backlog();
        if (backlog > caughtUp) sinceNanos[0] = 0;
        else if (sinceNanos[0] == 0) sinceNanos[0] = System.nanoTime();
        boolean steady = sinceNanos[0] != 0 && System.nanoTime() - sinceNanos[0] >= CAUGHT_UP_FOR.toNanos();
        if (!steady && !last) return false;
        if (steady) {
          // the window's start (its latency mark, CPU, status) before its first event, while the
          // warm-up still sends: no gap, and no window row written before the mark and left out
          handOverStart = WindowStart.now(ingest, store);
          sampler.phase("measure"); // the window's samples from the handover on, not the warm-up's
          next.generator().release();
        }
        warmUp.generator().stop();
        backlogAtHandover[0] = backlog;
        return true;
      };
      try {
        phase("warm-up", warmUp, false, 0, handOver);
        long seconds = Math.round((System.nanoTime() - startNanos) / 1e9);
        if (next.generator().released()) {
          out.printf("[streamlab] warm-up: caught up after %d s (backlog %,d events); the window's generator took over%n",
              seconds, backlogAtHandover[0]);
        } else {
          // a window that inherits the warm-up's backlog would measure that backlog's age
          out.printf("[streamlab] warm-up: NOT caught up after %d s (backlog %,d events); draining it, so the "
              + "window starts from an idle pipeline%n", seconds, Math.max(0, backlogAtHandover[0]));
          sampler.phase("warm-up/drain");
          drain(ackedBefore.get(), "warm-up/drain", new Progress(out, ackedBefore::get, sampler::latest, 0));
          // not released here: its phase releases it once the window's start is taken, which waits for a
          // status line (up to seconds on a loaded machine) and would otherwise cut the window's head off
        }
      } catch (InterruptedException | IOException | RuntimeException e) {
        next.generator().stop();
        throw e;
      }
      return next;
    }

    /**
     * Runs one generation to its end with progress lines (and {@code kills} kill -9 of the
     * ingestion), then drains it; returns its counts.
     *
     * @param handOver null: drain at the end; else asked every 0.1 s whether to end the phase
     *     there (it stops the generator itself), and the phase ends without a drain
     */
    private GeneratorStats phase(String name, Generation g, boolean measuredPhase, int kills, HandOver handOver)
        throws InterruptedException, IOException {
      EventGenerator.Config cfg = g.config();
      EventGenerator generator = g.generator();
      Thread genThread = g.thread();
      long[] killAt = Chaos.moments(kills, System.nanoTime(), cfg.duration());
      int nextKill = 0;
      sampler.phase(name);
      generator.release(); // a gated one starts with its phase (no-op for one already sending)
      IngestStatus before = ingest.status();
      Progress progress = new Progress(out, generator.stats()::acked, sampler::latest, before.done());
      out.printf("[streamlab] %s: generating %s for %d s%n", name, rateText(cfg.ratePerSec()), cfg.duration().toSeconds());
      running.set(generator.stats());
      long nextProgress = System.nanoTime() + config.progressInterval().toNanos();
      boolean handedOver = false;
      while (genThread.isAlive() || nextKill < kills) {
        genThread.join(100);
        if (handOver != null && !handedOver) handedOver = handOver.now();
        if (nextKill < kills && (System.nanoTime() >= killAt[nextKill] || !genThread.isAlive())) {
          nextKill++;
          out.printf("[streamlab] %s: chaos: kill -9 of the ingestion (%d of %d), restarting it%n", name, nextKill, kills);
          ingest.killAndRestart(READY_TIMEOUT, () -> !genThread.isAlive() && sampler.latest().backlog() == 0);
          out.printf("[streamlab] %s: chaos: ingestion restarted%n", name);
        }
        if (System.nanoTime() >= nextProgress) {
          progress.print(name);
          nextProgress += config.progressInterval().toNanos();
        }
        if (!ingest.isAlive()) {
          generator.stop();
          throw new IllegalStateException("ingestion died during the run; see " + ingestLog);
        }
      }
      GeneratorStats stats = generator.stats();
      boolean drain = handOver == null;
      out.printf("[streamlab] %s: %,d events sent, %,d acknowledged%s%n", name, stats.sent(), stats.acked(),
          drain ? "; draining" : "");
      record(measuredPhase, stats);
      if (drain) {
        sampler.phase(name + "/drain");
        drain(ackedBefore.get(), name + "/drain", progress);
      }
      return stats;
    }

    /** Waits until {@code target} events are ingested in all, printing progress meanwhile. */
    private void awaitIngested(long target, String name) throws InterruptedException {
      drain(target, name, new Progress(out, ackedBefore::get, sampler::latest, 0), false);
    }

    /** Max mode: rising rates (x1.5) until one is not sustained, then bisection to within 5 %. */
    private GeneratorStats searchMaxRate() throws Exception {
      RateSearch search = new RateSearch(Math.max(1_000, events.ratePerSec()), MAX_RATE_GROWTH,
          RateSearch.StopRule.within(MAX_RATE_PRECISION), config.mode().maxSteps());
      List<GeneratorStats> all = new ArrayList<>();
      highestSustained = search.highestSustained((rate, k) -> maxRateStep(rate, k, all));
      return GeneratorStats.combined(all);
    }

    /**
     * Max mode's hold: {@code share} of the highest sustained rate, in the pipeline the search has
     * warmed up, with a steady run's warm-up ({@link #warmUpInto}) at that rate. A steady run at the
     * same rate is a fresh ingestion process, whose JIT may still be compiling when its window
     * starts: at a high share of the machine's capacity its backlog then grows through the
     * warm-up and its window measures a restart, not the rate.
     *
     * @return the window's generator, sending (its producer ids after the steps')
     */
    private Generation holdAt(double share) throws InterruptedException, IOException {
      double rate = highestSustained * share;
      heldRate = rate;
      int base = STEP_PRODUCER_BASE + 100 * config.mode().maxSteps();
      out.printf("[streamlab] hold: %.0f %% of the highest sustained rate (%,.0f events/s): %,.0f events/s, "
          + "%d s of warm-up, then a window of %d s%n", 100 * share, highestSustained, rate,
          config.warmup().toSeconds(), events.duration().toSeconds());
      return warmUpInto(events.forPhase(rate, 0, config.warmup(), base), events.forPhase(rate, 0, events.duration(), base + 100));
    }

    /** One step of max mode: generate at {@code rate}, measure, drain; the step is recorded in {@link #steps}. */
    private boolean maxRateStep(double rate, int k, List<GeneratorStats> all) throws Exception {
      long mark = ingest.markLatencyInterval();
      Duration cpu0 = ingest.cpuTime();
      String name = String.format("step %d", k + 1);
      EventGenerator.Config cfg = events.forPhase(rate, 0, config.mode().stepDuration(), STEP_PRODUCER_BASE + 100 * k);
      // the backlog at either end from a report and the generator's count when it came: a report
      // is up to a second old, and a count of now would add a second of the step's rate to it
      Sampler.Counts countsAtStart = sampler.latest();
      long ingestedAtStart = countsAtStart.ingested();
      GeneratorStats stats = phaseWithoutDrain(name, cfg);
      Sampler.Counts countsAtEnd = sampler.latest();
      // before the drain: its samples are the step's catching up, not its keeping up
      double lateShare = RateStep.lateIngestedShare(
          sampler.samples().stream().filter(x -> x.phase().equals(name)).toList());
      sampler.phase(name + "/drain");
      long backlogGrowth = countsAtEnd.backlog() - countsAtStart.backlog();
      drain(ackedBefore.get(), name + "/drain", new Progress(out, stats::acked, sampler::latest, ingestedAtStart));
      IngestStatus drained = ingest.status();
      Histogram stepLatency = ingest.latency(stats.sequencesPerProducer().keySet(), mark, ingest.markLatencyInterval())
          .measured();
      double p99 = Rates.percentileMillis(stepLatency, 99);
      double cpuSecs = ingest.cpuTime().minus(cpu0).toNanos() / 1e9;
      // over the generator's schedule (it starts once its producers are connected and sends for the
      // step's duration), not the step's wall time, which also holds connecting and closing them:
      // seconds on a loaded machine, which would make a generator that kept its rate look short of it
      double generatedRate = Rates.perSecond(stats.acked(), config.mode().stepDuration().toNanos() / 1e9);
      boolean ok = RateStep.sustained(rate, generatedRate, backlogGrowth, p99, config.mode().maxP99().toMillis(), lateShare);
      RateStep step = new RateStep(rate, generatedRate,
          Rates.perSecond(countsAtEnd.ingested() - countsAtStart.ingested(),
              (countsAtEnd.nanos() - countsAtStart.nanos()) / 1e9), backlogGrowth, p99, lateShare,
          Rates.perCore(Math.round(ingest.bytesPerEvent(drained, stats) * (drained.done() - ingestedAtStart)), cpuSecs),
          ok);
      steps.add(step);
      out.printf("[streamlab] %s: %,.0f events/s %s (backlog %+,d, p99 %,.0f ms, second half ingested %s of generated)%n",
          name, rate, ok ? "sustained" : "NOT sustained", backlogGrowth, p99, step.keptUpText());
      all.add(stats);
      return ok;
    }

    /** Like {@link #phase} for a max-rate step: generation only; the caller measures, then drains. */
    private GeneratorStats phaseWithoutDrain(String name, EventGenerator.Config cfg) throws InterruptedException {
      sampler.phase(name);
      EventGenerator generator = transport.generator(cfg);
      running.set(generator.stats());
      out.printf("[streamlab] %s: generating %s for %d s%n", name, rateText(cfg.ratePerSec()), cfg.duration().toSeconds());
      GeneratorStats stats = generator.run();
      record(true, stats);
      return stats;
    }

    /** Waits until {@code target} events are in the table (or dead-lettered), or progress stops. */
    private void drain(long target, String name, Progress progress) throws InterruptedException {
      drain(target, name, progress, true);
    }

    /**
     * @param settle wait one more status interval at the end, so rows still in flight (which
     *     would be duplicates) show up in the figures
     */
    private void drain(long target, String name, Progress progress, boolean settle) throws InterruptedException {
      String group = IngestSettings.consumerGroup(events.topic(), store, config.table());
      long lastChange = System.nanoTime();
      long nextProgress = lastChange + config.progressInterval().toNanos();
      long lastDone = -1;
      while (true) {
        IngestStatus status = ingest.status();
        long done = status.done();
        if (config.mode().mode() == RunMode.DRAIN) {
          drainPolls.add(new DrainStart.Poll(System.currentTimeMillis() * 1000, ingest.cpuTime(), status));
        }
        // After restarts (--chaos), rows written twice inflate the counts: then the run also
        // waits until the committed offsets reach the end of the topic (they are committed only
        // once every row read before them is in the table).
        if (done >= target && (!config.chaos().any() || transport.unacknowledged(group) == 0)) {
          if (settle) Thread.sleep(1_200);
          return;
        }
        if (done != lastDone) {
          lastDone = done;
          lastChange = System.nanoTime();
        } else if (System.nanoTime() - lastChange > config.drainTimeout().toNanos()) {
          out.printf("[streamlab] %s: no progress for %d s with %,d of %,d events in; verifying what is there%n",
              name, config.drainTimeout().toSeconds(), done, target);
          return;
        }
        if (!ingest.isAlive()) throw new IllegalStateException("ingestion died while draining; see " + ingestLog);
        if (System.nanoTime() >= nextProgress) {
          progress.print(name);
          nextProgress += config.progressInterval().toNanos();
        }
        Thread.sleep(100);
      }
    }
  }

  private static String rateText(double rate) {
    return rate <= 0 ? "as fast as possible" : String.format("%,.0f events/s", rate);
  }
}
