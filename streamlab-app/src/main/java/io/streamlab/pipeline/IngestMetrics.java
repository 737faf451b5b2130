package io.streamlab.pipeline;

import java.util.EnumMap;
import java.util.Map;
import io.streamlab.metrics.StageCounts;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Live figures of the ingestion running in this JVM (embedded Flink MiniCluster or DirectRunner:
 * every worker thread is in this process), read by the status reporter. The authoritative counts
 * and latencies of a run come from the table itself; these only drive progress output.
 */
public final class IngestMetrics {
  private static final long MAX_LATENCY_MICROS = 3_600_000_000L;
  /** Only for its bucket arithmetic (never recorded into): the latency histograms' precision. */
  private static final Histogram BUCKETS = new Histogram(MAX_LATENCY_MICROS, 3);
  private static final IngestMetrics INSTANCE = new IngestMetrics();

  private final LongAdder eventsRead = new LongAdder();
  private final LongAdder rowsWritten = new LongAdder();
  /** Bytes the runner serialized to move elements through the write stage's shuffle. */
  private final LongAdder bytesShuffled = new LongAdder();
  private final Map<DeadLetters.Stage, LongAdder> failed = new EnumMap<>(DeadLetters.Stage.class);
  private static final int MAX_REMEMBERED_FAILURES = 1_000_000;
  private final java.util.Set<String> failedIds = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final AtomicLong writersOpen = new AtomicLong();
  private final Map<Stage, StageCounter> stages = new EnumMap<>(Stage.class);
  /** End-to-end latency in microseconds from intended send time to the append returning. */
  private final Recorder latencyMicros = new Recorder(MAX_LATENCY_MICROS, 3);
  private final Histogram cumulative = new Histogram(MAX_LATENCY_MICROS, 3);

  private IngestMetrics() {
    for (DeadLetters.Stage s : DeadLetters.Stage.values()) failed.put(s, new LongAdder());
    for (Stage s : Stage.values()) stages.put(s, new StageCounter());
  }

  /** Counts of one stage, added to by every worker thread of that stage. */
  public static final class StageCounter {
    private final LongAdder elements = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private final LongAdder aged = new LongAdder();
    private final LongAdder ageMicros = new LongAdder();

    /** @param bytes the elements' size where the stage knows it, else 0 */
    public void record(long elementCount, long byteCount, long nanos) {
      elements.add(elementCount);
      bytes.add(byteCount);
      busyNanos.add(nanos);
    }

    /**
     * As {@link #record}, and the output's age: {@code ageMicrosSum} = for each of the
     * {@code agedCount} elements, microseconds from its intended send time to this stage's output.
     */
    public void record(long elementCount, long byteCount, long nanos, long agedCount, long ageMicrosSum) {
      record(elementCount, byteCount, nanos);
      age(agedCount, ageMicrosSum);
    }

    /** Ages of elements this stage put out, apart from its counts (the read ages events, counts messages). */
    public void age(long agedCount, long ageMicrosSum) {
      aged.add(agedCount);
      ageMicros.add(ageMicrosSum);
    }

    public StageCounts snapshot() {
      return new StageCounts(elements.sum(), bytes.sum(), busyNanos.sum(), aged.sum(), ageMicros.sum());
    }

    /** A tally of this stage for one thread, added here by {@link Tally#flush}. */
    public Tally tally() {
      return new Tally(this);
    }
  }

  /**
   * One DoFn instance's counts of a stage, in plain fields, added to the shared
   * {@link StageCounter} at the end of each bundle ({@link #flush}, from @FinishBundle) and at
   * least every {@link #FLUSH_NANOS} ({@link #flushDue}) instead of five LongAdder adds per
   * element: the front stages counted every event into three stages, ~3 % of the reading thread's
   * CPU in a drain's profile (docs/perf-notes.md). Bundles alone are not often enough: a DuckDB
   * writer that holds its appends while behind has bundles of seconds, and the status lines (the
   * last one before a kill among them) and a measurement window's edges read the shared counts.
   * Not thread-safe: one per DoFn instance, as Beam calls an instance from one thread at a time.
   */
  public static final class Tally {
    /** The longest a tally goes unflushed within a bundle: the default bundle time's order, far inside a status interval. */
    public static final long FLUSH_NANOS = 50_000_000;

    private final StageCounter counter;
    private long elements, bytes, busyNanos, aged, ageMicros;
    private long dueFromNanos = Long.MIN_VALUE;

    private Tally(StageCounter counter) {
      this.counter = counter;
    }

    /** As {@link StageCounter#record(long, long, long)}. */
    public void record(long elementCount, long byteCount, long nanos) {
      elements += elementCount;
      bytes += byteCount;
      busyNanos += nanos;
    }

    /** As {@link StageCounter#record(long, long, long, long, long)}. */
    public void record(long elementCount, long byteCount, long nanos, long agedCount, long ageMicrosSum) {
      record(elementCount, byteCount, nanos);
      age(agedCount, ageMicrosSum);
    }

    /** As {@link StageCounter#age}. */
    public void age(long agedCount, long ageMicrosSum) {
      aged += agedCount;
      ageMicros += ageMicrosSum;
    }

    /**
     * Whether {@link #FLUSH_NANOS} have passed since the last time this said so, at {@code
     * nowNanos} (a {@link System#nanoTime} the caller read anyway): the caller then flushes this
     * tally and those it keeps beside it.
     */
    public boolean flushDue(long nowNanos) {
      if (dueFromNanos != Long.MIN_VALUE && nowNanos - dueFromNanos < FLUSH_NANOS) return false;
      dueFromNanos = nowNanos;
      return true;
    }

    /** Adds what was tallied since the last flush to the stage's shared counts. */
    public void flush() {
      if (elements != 0 || bytes != 0 || busyNanos != 0) counter.record(elements, bytes, busyNanos);
      if (aged != 0) counter.age(aged, ageMicros);
      elements = bytes = busyNanos = aged = ageMicros = 0;
    }
  }

  public StageCounter stage(Stage stage) {
    return stages.get(stage);
  }

  /** Every stage that has seen an element, in pipeline order. */
  public Map<Stage, StageCounts> stageSnapshot() {
    Map<Stage, StageCounts> m = new EnumMap<>(Stage.class);
    stages.forEach((k, v) -> {
      StageCounts c = v.snapshot();
      if (c.elements() > 0) m.put(k, c);
    });
    return m;
  }

  public static IngestMetrics get() {
    return INSTANCE;
  }

  /**
   * Events taken out of the broker messages read, before they are decoded; the messages
   * themselves (plain events or envelopes of several) and their bytes are the read stage's counts.
   */
  void recordEventsRead(long events) {
    eventsRead.add(events);
  }

  public void recordFailed(DeadLetters.Stage stage) {
    failed.get(stage).increment();
  }

  /**
   * A dead letter of the event {@code eventId}, counted once however often a replay (a retried
   * bundle, a restarted job) produces it again; null = no identity, always counted. Beyond
   * {@link #MAX_REMEMBERED_FAILURES} identities a replay may be counted again.
   */
  public void recordFailed(DeadLetters.Stage stage, String eventId) {
    if (eventId != null && failedIds.size() < MAX_REMEMBERED_FAILURES && !failedIds.add(stage + " " + eventId)) return;
    failed.get(stage).increment();
  }

  public void recordWritten(long rows) {
    rowsWritten.add(rows);
  }

  public void recordShuffled(long bytes) {
    bytesShuffled.add(bytes);
  }

  private static long clampLatency(long micros) {
    return Math.max(0, Math.min(micros, MAX_LATENCY_MICROS));
  }

  /**
   * The latencies {@code micros[0..count)} of one appended batch. The histogram keeps 3
   * significant digits, so consecutive rows whose ages fall in the same bucket are recorded as one
   * value with a count: the same histogram as recording each (and the same count), with far
   * fewer of the recorder's two atomic updates and min/max checks per row (~3 % of the reading
   * thread's CPU in a drain's profile, where a batch's ages share a few buckets).
   */
  public void recordLatencies(long[] micros, int count) {
    int i = 0;
    while (i < count) {
      long first = clampLatency(micros[i]);
      long low = BUCKETS.lowestEquivalentValue(first);
      long high = BUCKETS.highestEquivalentValue(first);
      int j = i + 1;
      while (j < count) {
        long v = clampLatency(micros[j]);
        if (v < low || v > high) break;
        j++;
      }
      latencyMicros.recordValueWithCount(first, j - i);
      i = j;
    }
  }

  public void writerOpened() {
    writersOpen.incrementAndGet();
  }

  public long eventsRead() { return eventsRead.sum(); }
  /** The broker messages' bytes: the read stage's. */
  public long bytesRead() { return stages.get(Stage.READ).bytes.sum(); }
  public long rowsWritten() { return rowsWritten.sum(); }
  public long bytesShuffled() { return bytesShuffled.sum(); }
  public long failed(DeadLetters.Stage stage) { return failed.get(stage).sum(); }
  public long failedTotal() {
    return failed.values().stream().mapToLong(LongAdder::sum).sum();
  }
  /** True once a writer has opened its table: the pipeline is running. */
  public boolean ready() { return writersOpen.get() > 0; }

  /** Latencies recorded since the last call, folded into the cumulative histogram too. */
  public synchronized Histogram intervalLatency() {
    Histogram interval = latencyMicros.getIntervalHistogram();
    cumulative.add(interval);
    return interval;
  }

  public synchronized void resetCumulativeLatency() {
    cumulative.reset();
  }

  public synchronized Histogram cumulativeLatency() {
    return cumulative.copy();
  }
}
