package io.streamlab.bench;

import io.streamlab.metrics.StageCounts;
import io.streamlab.pipeline.Stage;
import java.util.Map;

/**
 * One point of a run's time series, taken every second: totals so far (rates are differences of
 * consecutive samples).
 *
 * @param seconds since the run's ingestion started
 * @param generated events the broker acknowledged to the generator, all phases
 * @param ingested rows written plus dead-lettered, all phases
 * @param cpuSeconds CPU time of the ingestion process so far
 * @param heapPeakBytes the ingestion JVM's peak heap use so far
 * @param write the write stage's request figures so far (see IngestStatus#write)
 */
public record Sample(long epochMillis, double seconds, String phase, long generated, long ingested,
    long bytesRead, double cpuSeconds, long heapPeakBytes, Map<Stage, StageCounts> stages, Map<String, Long> write) {

  /** A sample without write-stage request figures. */
  public Sample(long epochMillis, double seconds, String phase, long generated, long ingested,
      long bytesRead, double cpuSeconds, long heapPeakBytes, Map<Stage, StageCounts> stages) {
    this(epochMillis, seconds, phase, generated, ingested, bytesRead, cpuSeconds, heapPeakBytes, stages, Map.of());
  }

  public long backlog() {
    return Math.max(0, generated - ingested);
  }
}
