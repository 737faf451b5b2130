package io.streamlab.pipeline;

import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.write.WriteStats;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * One status line of a running ingestion, printed to stdout by {@code streamlab ingest} and read
 * by {@code streamlab run}, which starts ingestion as a separate process (so its CPU time can be
 * measured alone, and it can be killed and restarted).
 *
 * @param p99Micros p99 latency since the last mark, {@link #UNKNOWN} where the status cannot know it
 * @param bytesShuffled bytes the write stage's shuffle serialized (0 without a shuffle)
 * @param heapPeakBytes the ingestion JVM's peak heap use so far (sum of the heap pools' peaks)
 * @param stages per-stage counts so far, for stages that have seen an element
 * @param write the write stage's request figures ({@link WriteStats#snapshot()}: connections,
 *     appends, most requests in flight, active keys / shards); empty where unknown
 * @param allocatedBytes heap bytes the ingestion JVM's threads have allocated so far, ended threads
 *     included; 0 where unknown. It moves far less with the machine's speed of the moment than CPU
 *     time (a few percent between drains of one build, against up to a third), so a hot-path
 *     change that removes objects shows in a few drains of each build
 */
public record IngestStatus(boolean ready, long eventsRead, long bytesRead, long rowsWritten,
    long failed, long p99Micros, long bytesShuffled, long heapPeakBytes, Map<Stage, StageCounts> stages,
    Map<String, Long> write, long allocatedBytes) {
  public static final String PREFIX = "STREAMLAB-STATUS ";
  private static final String STAGE_KEY = "stage.";
  private static final String WRITE_KEY = "write.";

  public IngestStatus {
    stages = Map.copyOf(stages);
    write = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(write));
  }

  /** A status without write-stage request figures or allocation. */
  public IngestStatus(boolean ready, long eventsRead, long bytesRead, long rowsWritten,
      long failed, long p99Micros, long bytesShuffled, long heapPeakBytes, Map<Stage, StageCounts> stages) {
    this(ready, eventsRead, bytesRead, rowsWritten, failed, p99Micros, bytesShuffled, heapPeakBytes, stages, Map.of());
  }

  /** A status without allocation (a process this one cannot see into). */
  public IngestStatus(boolean ready, long eventsRead, long bytesRead, long rowsWritten,
      long failed, long p99Micros, long bytesShuffled, long heapPeakBytes, Map<Stage, StageCounts> stages,
      Map<String, Long> write) {
    this(ready, eventsRead, bytesRead, rowsWritten, failed, p99Micros, bytesShuffled, heapPeakBytes, stages, write, 0);
  }

  /** A p99 the status does not know (a cluster run's figures come from the table at its end). */
  public static final long UNKNOWN = -1;

  public static final IngestStatus NONE = new IngestStatus(false, 0, 0, 0, 0, 0, 0, 0, Map.of());

  /** Rows written or dead-lettered: events that are through the pipeline. */
  public long done() {
    return rowsWritten + failed;
  }

  public static IngestStatus current(long p99Micros) {
    IngestMetrics m = IngestMetrics.get();
    return new IngestStatus(m.ready(), m.eventsRead(), m.bytesRead(), m.rowsWritten(),
        m.failedTotal(), p99Micros, m.bytesShuffled(), heapPeak(), m.stageSnapshot(), WriteStats.get().snapshot(),
        allocated());
  }

  /** Heap bytes allocated by all threads so far (0 where the JVM does not count them). */
  private static long allocated() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
        && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
      return Math.max(0, t.getTotalThreadAllocatedBytes());
    }
    return 0;
  }

  private static long heapPeak() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) peak += pool.getPeakUsage().getUsed();
    }
    return peak;
  }

  public StageCounts stage(Stage stage) {
    return stages.getOrDefault(stage, StageCounts.ZERO);
  }

  /** The totals of two ingestion processes, one after the other (a killed one and its restart). */
  public IngestStatus plus(IngestStatus o) {
    Map<Stage, StageCounts> sum = new EnumMap<>(Stage.class);
    for (Stage st : Stage.values()) {
      StageCounts a = stage(st), b = o.stage(st);
      if (a.elements() + b.elements() > 0) {
        sum.put(st, a.plus(b));
      }
    }
    Map<String, Long> w = new java.util.LinkedHashMap<>(write);
    o.write.forEach((k, v) -> w.merge(k, v, WriteStats.combined(k)));
    return new IngestStatus(o.ready, eventsRead + o.eventsRead, bytesRead + o.bytesRead, rowsWritten + o.rowsWritten,
        failed + o.failed, o.p99Micros, bytesShuffled + o.bytesShuffled, Math.max(heapPeakBytes, o.heapPeakBytes), sum, w,
        allocatedBytes + o.allocatedBytes);
  }

  /** What each stage did between {@code earlier} and this status. */
  public Map<Stage, StageCounts> stagesSince(IngestStatus earlier) {
    Map<Stage, StageCounts> m = new EnumMap<>(Stage.class);
    stages.forEach((stage, counts) -> m.put(stage, counts.minus(earlier.stage(stage))));
    return m;
  }

  public String format() {
    StringBuilder sb = new StringBuilder(PREFIX).append("ready=").append(ready ? 1 : 0)
        .append(" read=").append(eventsRead).append(" bytes=").append(bytesRead)
        .append(" written=").append(rowsWritten).append(" failed=").append(failed)
        .append(" p99us=").append(p99Micros).append(" shuffled=").append(bytesShuffled)
        .append(" heap=").append(heapPeakBytes).append(" alloc=").append(allocatedBytes);
    stages.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(e -> sb.append(' ').append(STAGE_KEY).append(e.getKey().label()).append('=').append(e.getValue().format()));
    write.forEach((k, v) -> sb.append(' ').append(WRITE_KEY).append(k).append('=').append(v));
    return sb.toString();
  }

  /** @return the status, or null if the line is not a status line */
  public static IngestStatus parse(String line) {
    if (!line.startsWith(PREFIX)) return null;
    Map<String, Long> v = new HashMap<>();
    Map<Stage, StageCounts> stages = new EnumMap<>(Stage.class);
    Map<String, Long> write = new java.util.LinkedHashMap<>();
    for (String kv : line.substring(PREFIX.length()).trim().split(" ")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) continue;
      String key = kv.substring(0, eq), value = kv.substring(eq + 1);
      if (key.startsWith(WRITE_KEY)) {
        write.put(key.substring(WRITE_KEY.length()), Long.parseLong(value));
      } else if (key.startsWith(STAGE_KEY)) {
        stages.put(Stage.valueOf(key.substring(STAGE_KEY.length()).toUpperCase()), StageCounts.parse(value));
      } else {
        v.put(key, Long.parseLong(value));
      }
    }
    return new IngestStatus(v.getOrDefault("ready", 0L) == 1, v.getOrDefault("read", 0L),
        v.getOrDefault("bytes", 0L), v.getOrDefault("written", 0L), v.getOrDefault("failed", 0L),
        v.getOrDefault("p99us", 0L), v.getOrDefault("shuffled", 0L), v.getOrDefault("heap", 0L), stages, write,
        v.getOrDefault("alloc", 0L));
  }
}
