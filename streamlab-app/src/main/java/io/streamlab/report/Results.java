package io.streamlab.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.streamlab.bench.StoreServerFigures;
import io.streamlab.bench.WriteFigures;
import java.util.List;
import java.util.Map;

/**
 * results.json as typed records: every figure of a run, its full configuration, the machine, and
 * its time series. The field names are what scripts/figures.sh, scripts/bench-vs-peer, the HTML
 * report, {@code streamlab compare}, the study and the tests read: rename one only with its readers.
 *
 * @param storeServer the store server's checkpoints in the window and its settings (PostgreSQL),
 *     null (left out) for other stores
 * @param steps the max-rate search's steps, null (left out) for other modes
 * @param series one row a second; a map because its per-stage columns ({@code <stage>PerSec}) and
 *     {@code activeKeys} (and {@code autoShards}, the count auto-sharding chose) are there only for the
 *     stages and write methods a run has
 */
public record Results(Run run, Map<String, String> configuration, Machine machine, Generated generated, Table table,
    VerdictFigures verdict, Ingestion ingestion, Shuffle shuffle, Latency latencyMillis, Map<String, String> sources,
    WriteFigures write, @JsonInclude(JsonInclude.Include.NON_NULL) StoreServerFigures storeServer,
    List<StageFigures> stages, Reference reference,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<Step> steps, List<Map<String, Object>> series) {

  public record Run(String name, String description, String mode, String startedAt, String directory) {}

  /** The facts of this machine a result needs to be read correctly later (memory: null where unknown). */
  public record Machine(int cores, @JsonInclude(JsonInclude.Include.NON_NULL) Long memoryBytes, String os, String java,
      double loadAverageAtEnd) {}

  public record Generated(long sent, long acked, long errors, long payloadBytes) {}

  public record Table(long expected, long rows, long measuredRows, long failed, Map<String, Long> failedByStage,
      long lost, long duplicated, long unexpected, long duplicatedInTable, long eventsReRead, long rowsIgnoredByKey) {}

  public record VerdictFigures(String promise, String verdict, int exitCode, String reason) {}

  /**
   * @param maxSustainedEventsPerSec the max-rate search's, null (left out) for other modes
   * @param allocatedBytesPerEvent heap bytes the ingestion allocated per event of the window, null
   *     (left out) where unknown
   * @param cpuWindowEpochMicros the interval {@code cpuSeconds} was measured over, from and to
   *     (epoch micros), null (left out) where unknown
   */
  public record Ingestion(double eventsPerSec, double megabytesPerSec, long payloadBytes, double writingSeconds,
      double windowSeconds, double cpuSeconds, double megabytesPerSecPerIngestCore, long heapPeakBytes,
      int machineCores, @JsonInclude(JsonInclude.Include.NON_NULL) Double maxSustainedEventsPerSec, int ingestKills,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double heldEventsPerSec,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double allocatedBytesPerEvent,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<Long> cpuWindowEpochMicros) {}

  public record Shuffle(long bytesRead, long bytesShuffled, double shuffledPerRead) {}

  /** End to end, from the intended send time, in milliseconds. */
  public record Latency(double p50, double p90, double p99, @JsonProperty("p99.9") double p999, double max, long count) {}

  /**
   * One stage over the measurement window.
   *
   * @param sinceSendMeanMillis mean age of the stage's output, from the intended send time (null:
   *     the stage does not record it); the read's is the time events waited before the pipeline
   * @param fromReadMeanMillis mean time from the read to the stage's output (issue 13.4: the study
   *     adds these up); the write's ends when the row is visible, its shuffle included
   */
  public record StageFigures(String stage, long elements, long bytes, double wallSeconds, double eventsPerSec,
      double megabytesPerSec, double meanElementBytes, Double sinceSendMeanMillis, Double fromReadMeanMillis) {}

  public record Reference(String study, double megabytesPerSecPerCoreAtLeastOnce,
      double megabytesPerSecPerCoreExactlyOnce, double p99Millis) {}

  /** @param secondHalfIngestedShare events ingested per event generated over the step's second half (null: too few samples) */
  public record Step(double targetEventsPerSec, double generatedEventsPerSec, double ingestedEventsPerSec,
      long backlogGrowth, double p99Millis, Double secondHalfIngestedShare, double megabytesPerSecPerIngestCore,
      boolean sustained) {}
}
