package io.streamlab.bench;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.streamlab.report.ReportFiles;
import io.streamlab.store.quota.QuotaReason;
import io.streamlab.store.quota.TableQuota;
import io.streamlab.store.throttle.ThrottleStats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of the sink benchmark's table: a strategy's figures and its table's verification.
 *
 * @param pipelineSeconds the whole Beam job, start-up and restarts included
 * @param writerSeconds from the first request to the last row written (the original's "writer wall time")
 * @param rowsWritten rows the store accepted (duplicates included)
 * @param bytesWritten their bytes as the quota counts them (Avro binary)
 * @param errors refusals seen by the writers, by reason ("other" = not a quota refusal)
 * @param retries requests sent again by the strategy
 * @param failedAppends appends that failed, each failing a bundle the runner retried
 * @param lost generated rows that are not in the table (dead-lettered ones included: every row
 *     sinkbench generates is good, so a dead letter is a row the sink failed to write)
 * @param deadLettered rows in the dead-letter table
 */
public record SinkBenchResult(String writeMethod, String strategy, String pool, long offeredRows, double pipelineSeconds,
    double writerSeconds, long rowsWritten, long bytesWritten, Map<String, Long> errors, long retries,
    long failedAppends, long lost, long deadLettered, long duplicated, String outcome) {

  static SinkBenchResult of(SinkBench.Variant v, long offered, double pipelineSeconds, String outcome,
      ThrottleStats stats, TableQuota quota, Verification verified, long distinctInTable) {
    Map<String, Long> errors = stats == null ? Map.of() : stats.errorsByReason();
    return new SinkBenchResult(v.method().name(), v.strategy().cliName(), v.pool().toString(), offered, pipelineSeconds,
        stats == null ? 0 : stats.writerWallSeconds(), quota == null ? 0 : quota.acceptedRows(),
        quota == null ? 0 : quota.acceptedBytes(), errors, stats == null ? 0 : stats.retries(),
        stats == null ? 0 : stats.failedAppends(), Math.max(0, offered - distinctInTable), verified.failed(),
        verified.duplicated(), outcome);
  }

  private long errors(QuotaReason r) {
    return errors.getOrDefault(r.wireName(), 0L);
  }

  private static final String HEADER = String.format("%-25s %-15s %-9s %9s %9s %10s %9s %9s %9s %8s %6s %7s %8s %8s %8s %7s  %s",
      "writeMethod", "strategy", "pool", "writer-s", "job-s", "rows", "MB", "rateLim", "quotaEx", "backend", "other",
      "retries", "bundleF", "lost", "deadLtr", "dup", "outcome");

  public static void print(List<SinkBenchResult> results, PrintStream out) {
    out.println();
    out.println("==== streamlab sinkbench ====");
    out.println(HEADER);
    for (SinkBenchResult r : results) {
      out.printf("%-25s %-15s %-9s %9.1f %9.1f %,10d %9.1f %9d %9d %8d %6d %7d %8d %,8d %,8d %7d  %s%n", r.writeMethod,
          r.strategy, r.pool,
          r.writerSeconds, r.pipelineSeconds, r.rowsWritten, r.bytesWritten / 1e6,
          r.errors(QuotaReason.RATE_LIMIT_EXCEEDED), r.errors(QuotaReason.QUOTA_EXCEEDED),
          r.errors(QuotaReason.BACKEND_ERROR), r.errors.getOrDefault("other", 0L), r.retries, r.failedAppends,
          r.lost, r.deadLettered, r.duplicated, r.outcome);
    }
  }

  /** {@code sinkbench.json} and {@code sinkbench.csv} in {@code dir}. */
  public static void save(List<SinkBenchResult> results, Map<String, Object> setup, Path dir) throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("setup", setup);
    doc.put("results", results);
    ReportFiles.writeJson(dir.resolve("sinkbench.json"), doc);
    ReportFiles.writeCsv(dir.resolve("sinkbench.csv"), CsvRow.class, results.stream().map(SinkBenchResult::csvRow).toList());
  }

  /** One line of sinkbench.csv: the errors by reason in columns of their own. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record CsvRow(String writeMethod, String strategy, String pool, long offeredRows, double writerSeconds,
      double pipelineSeconds, long rowsWritten, long bytesWritten, long rateLimitExceeded, long quotaExceeded,
      long backendError, long invalid, long otherErrors, long retries, long failedAppends, long lost, long deadLettered,
      long duplicated, String outcome) {}

  private CsvRow csvRow() {
    return new CsvRow(writeMethod, strategy, pool, offeredRows, ReportFiles.round(writerSeconds, 3),
        ReportFiles.round(pipelineSeconds, 3), rowsWritten, bytesWritten, errors(QuotaReason.RATE_LIMIT_EXCEEDED),
        errors(QuotaReason.QUOTA_EXCEEDED), errors(QuotaReason.BACKEND_ERROR), errors(QuotaReason.INVALID),
        errors.getOrDefault("other", 0L), retries, failedAppends, lost, deadLettered, duplicated, outcome);
  }
}
