package io.streamlab.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a run's figures came from, printed with them (summary, results.json, report): an
 * embedded run measures inside its ingestion process; a cluster run's workers are other JVMs, so
 * each figure there is measured another way, and says which.
 */
public record FigureSources(String cpu, String bytesRead, String shuffle, String latency) {
  public static final FigureSources EMBEDDED = new FigureSources(
      "CPU time of the ingestion process (the whole pipeline and its embedded Flink MiniCluster)",
      "payload bytes counted by the pipeline's read stage (rows ingested in the window x mean bytes read per event)",
      "bytes the write stage's shuffle coder serialized, counted in the pipeline",
      "recorded by the writers when each append returned (latency.hlog)");

  /** A run on a Flink cluster whose TaskManagers had these pids. */
  public static FigureSources cluster(List<Long> taskManagerPids) {
    return new FigureSources(
        "CPU time of the TaskManager processes " + taskManagerPids + " (/proc/<pid>/stat, sampled every second; "
            + "JobManager, brokers, PostgreSQL and the client excluded)",
        "rows written in the window (counted in the table) x mean payload bytes per event as generated "
            + "(the job reads exactly the generated messages)",
        "Flink REST: numBytesOut of every job vertex another vertex reads from (network shuffles, Flink framing "
            + "included), summed per task attempt; after a job restart it has been seen to undercount",
        TableLatency.SOURCE);
  }

  public Map<String, String> asMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cpu", cpu);
    m.put("bytesRead", bytesRead);
    m.put("shuffle", shuffle);
    m.put("latency", latency);
    return m;
  }
}
