package io.streamlab.bench;

import io.streamlab.pipeline.write.WriteMethod;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the table kept the promise of the run's write method, and the exit code that says so.
 * Exactly-once promises every event exactly once in the table; at-least-once promises no loss
 * and allows duplicates, which are counted and shown but do not fail it. Rows the run never sent
 * fail either promise: the table then holds someone else's rows, so none of its counts can be
 * trusted. Dead letters count as delivered (their bytes and cause are kept) and are reported
 * apart; their repeats after a replay do not break exactly-once, which is a promise about the
 * table (the dead-letter table is plain).
 *
 * @param promise what the write method promised
 * @param exitCode {@link #OK}, {@link #LOST}, {@link #DUPLICATED} or {@link #UNEXPECTED}
 * @param reason one line: the counts the verdict rests on
 */
public record Verdict(Promise promise, int exitCode, String reason) {
  /** The table kept the promise. */
  public static final int OK = 0;
  /** Events the generator sent are in neither the table nor its dead-letter table. */
  public static final int LOST = 1;
  /** The run could not be done: a bad flag, a refused table, a failure (set by the CLI, not here). */
  public static final int RUN_FAILED = 2;
  /** Exactly-once promised, but the table holds an event more than once (nothing lost). */
  public static final int DUPLICATED = 3;
  /** The table holds events the run never sent (another run's rows, or foreign data). */
  public static final int UNEXPECTED = 4;

  /** The exit codes of a run, for --help and the README: code, then meaning. */
  public static final Map<Integer, String> EXIT_CODES = Map.of(
      OK, "OK: the table kept the write method's promise (exactly-once: nothing lost or duplicated; "
          + "at-least-once: nothing lost, duplicates counted and shown)",
      LOST, "FAIL: rows lost (events sent that are in neither the table nor its dead-letter table)",
      RUN_FAILED, "the run could not be done: a bad flag, a refused table, a failure (the message says which)",
      DUPLICATED, "FAIL: an exactly-once run (STORAGE_WRITE_API) left duplicates in the table",
      UNEXPECTED, "FAIL: the table holds rows this run never sent (another run's or foreign rows)");

  /** What a write method promises about the rows of the table. */
  public enum Promise {
    EXACTLY_ONCE, AT_LEAST_ONCE;

    public static Promise of(WriteMethod method) {
      return method.exactlyOnce() ? EXACTLY_ONCE : AT_LEAST_ONCE;
    }

    /** The promise of the write method a run was configured with (its {@code writeMethod} flag). */
    public static Promise of(RunInfo info) {
      String method = info.configuration().get("writeMethod");
      return method == null ? AT_LEAST_ONCE : of(WriteMethod.valueOf(method));
    }

    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** Judges the verified table against the promise; loss comes first, then duplicates, then strangers. */
  public static Verdict of(Promise promise, Verification v) {
    String counts = String.format("%,d lost, %,d duplicated in the table, %,d unexpected", v.lost(),
        v.duplicatedInTable(), v.unexpected());
    if (v.lost() > 0) return new Verdict(promise, LOST, counts);
    if (promise == Promise.EXACTLY_ONCE && v.duplicatedInTable() > 0) return new Verdict(promise, DUPLICATED, counts);
    if (v.unexpected() > 0) return new Verdict(promise, UNEXPECTED, counts);
    return new Verdict(promise, OK, counts + (promise == Promise.AT_LEAST_ONCE && v.duplicatedInTable() > 0
        ? " (duplicates are allowed at-least-once)" : ""));
  }

  public boolean ok() {
    return exitCode == OK;
  }

  /** "OK" or "FAIL". */
  public String word() {
    return ok() ? "OK" : "FAIL";
  }

  /** e.g. "FAIL (exactly-once): 0 lost, 12 duplicated in the table, 0 unexpected". */
  public String line() {
    return word() + " (" + promise.label() + "): " + reason;
  }

  /** The exit codes in order, code as text, for picocli's usage message ({@code exitCodeList}). */
  public static Map<String, String> exitCodeList() {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    new java.util.TreeMap<>(EXIT_CODES).forEach((code, meaning) -> m.put(String.valueOf(code), meaning));
    return m;
  }
}
