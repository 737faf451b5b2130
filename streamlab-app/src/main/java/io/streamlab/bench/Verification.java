package io.streamlab.bench;

import java.util.Map;

/**
 * What the table holds compared with what the generator sent. A dead-lettered event counts as
 * delivered (it is in {@code <table>_failed} with its bytes), and is reported per stage.
 *
 * @param expected events the generator sent (sequences 0..n-1 per producer)
 * @param rows rows in the table plus rows in the dead-letter table
 * @param distinct distinct expected (producer, sequence) pairs found
 * @param lost expected pairs found nowhere
 * @param duplicated rows beyond the first for the same pair, table and dead letters together
 * @param unexpected distinct pairs found that the generator never sent
 * @param failedByStage dead-letter rows per stage
 * @param measuredRows table rows of the measurement window's producers (warm-up rows excluded)
 * @param firstWriteMicros earliest write time of those rows (0 if none)
 * @param lastWriteMicros latest write time of those rows (0 if none)
 * @param duplicatedInTable rows of the table itself beyond the first for the same pair: what an
 *     exactly-once write promises to be 0. The dead-letter table is plain (a replayed bad message
 *     is dead-lettered again), so its repeats are counted apart: {@link #duplicatedDeadLetters()}.
 * @param tableRows rows in the table itself (dead letters and their repeats not included)
 */
public record Verification(long expected, long rows, long distinct, long lost, long duplicated,
    long unexpected, Map<String, Long> failedByStage, long measuredRows, long firstWriteMicros,
    long lastWriteMicros, long duplicatedInTable, long tableRows) {

  /** Without a separate count for the table: every duplicate is taken to be in the table. */
  public Verification(long expected, long rows, long distinct, long lost, long duplicated, long unexpected,
      Map<String, Long> failedByStage, long measuredRows, long firstWriteMicros, long lastWriteMicros) {
    this(expected, rows, distinct, lost, duplicated, unexpected, failedByStage, measuredRows, firstWriteMicros,
        lastWriteMicros, duplicated, rows - failedByStage.values().stream().mapToLong(Long::longValue).sum());
  }

  /** Duplicates outside the table proper: dead letters repeated, or an event both written and dead-lettered. */
  public long duplicatedDeadLetters() {
    return duplicated - duplicatedInTable;
  }

  public long failed() {
    return failedByStage.values().stream().mapToLong(Long::longValue).sum();
  }
}
