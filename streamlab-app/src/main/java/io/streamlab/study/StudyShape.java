package io.streamlab.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Whether the lab reproduces the study's shape (DESIGN.md, "What the seven runs must show"): one
 * verdict a finding, yes / no, or n/a when a run it needs is not in this study. Printed, never
 * asserted: speed on a shared laptop is a figure, not a test.
 */
public final class StudyShape {
  /** "Clearly more": the margin by which 512 keys must beat 50. */
  static final double CLEARLY_MORE = 1.2;
  /** "At least as much", allowing the max-rate search's 5 % precision. */
  static final double AT_LEAST = 0.95;
  /** "Around 1-2 s" for a 1 s trigger. */
  static final double AROUND_1_TO_2_S_LOW = 750, AROUND_1_TO_2_S_HIGH = 2_500;
  /** "Shuffle close to the read volume" (the study: 25 TB for 7 TB) and "close to nothing". */
  static final double SHUFFLE_ABOUT_READ = 0.5, SHUFFLE_ABOUT_NOTHING = 0.01;

  /**
   * @param holds null when a run it needs is missing (n/a)
   * @param evidence the figures it was judged on
   */
  public record Verdict(String claim, Boolean holds, String evidence) {
    public String answer() {
      return holds == null ? "n/a" : holds ? "yes" : "no";
    }
  }

  private StudyShape() {}

  public static List<Verdict> judge(List<StudyRow> rows) {
    Map<Integer, StudyRow> byRun = new TreeMap<>();
    for (StudyRow r : rows) if (r.studyRun() != null) byRun.putIfAbsent(r.studyRun(), r);
    List<Verdict> v = new ArrayList<>();
    v.add(new Verdict("no row lost in any run", rows.stream().allMatch(r -> r.lost() == 0),
        "lost: " + join(rows, r -> String.valueOf(r.lost()))));
    List<StudyRow> exactly = rows.stream().filter(StudyRow::exactlyOnce).toList();
    v.add(exactly.isEmpty() ? na("exactly-once runs: no row duplicated", "no STORAGE_WRITE_API run")
        : new Verdict("exactly-once runs: no row duplicated", exactly.stream().allMatch(r -> r.duplicated() == 0),
            "duplicated: " + join(exactly, r -> String.valueOf(r.duplicated()))));
    v.add(ratio(byRun, 2, 1, StudyRow::highestSustainedPerSec, CLEARLY_MORE,
        "512 keys sustain clearly more than 50 keys (run 2 >= 1.2 x run 1)", "highest sustained /s"));
    v.add(ratio(byRun, 3, 2, StudyRow::highestSustainedPerSec, AT_LEAST,
        "auto-sharding sustains at least as much as 512 keys (run 3 >= 0.95 x run 2)", "highest sustained /s"));
    v.add(single(byRun, 4, "run 4 p99 > 10 s (every row waits up to the 10 s trigger)",
        r -> r.p99Millis() > 10_000, r -> ms("p99", r.p99Millis())));
    for (int run : new int[] {5, 6}) {
      v.add(single(byRun, run, "run " + run + " p99 around 1-2 s (0.75-2.5 s; 1 s trigger)",
          r -> r.p99Millis() >= AROUND_1_TO_2_S_LOW && r.p99Millis() <= AROUND_1_TO_2_S_HIGH,
          r -> ms("p99", r.p99Millis())));
    }
    v.add(single(byRun, 7, "run 7 p99 < 300 ms", r -> r.p99Millis() < StudyFigures.P99_MILLIS_AT_LEAST_ONCE,
        r -> ms("p99", r.p99Millis())));
    v.add(exactly.isEmpty() ? na("exactly-once runs shuffle about their read volume (>= 0.5 x read)",
        "no STORAGE_WRITE_API run")
        : new Verdict("exactly-once runs shuffle about their read volume (>= 0.5 x read)",
            exactly.stream().allMatch(r -> r.shuffledPerRead() != null && r.shuffledPerRead() >= SHUFFLE_ABOUT_READ),
            "shuffled/read: " + join(exactly, r -> ratioText(r.shuffledPerRead()))));
    List<StudyRow> atLeastOnce = rows.stream().filter(r -> r.writeMethod().equals("STORAGE_API_AT_LEAST_ONCE")).toList();
    v.add(atLeastOnce.isEmpty() ? na("at-least-once appends shuffle close to nothing (< 0.01 x read)",
        "no STORAGE_API_AT_LEAST_ONCE run")
        : new Verdict("at-least-once appends shuffle close to nothing (< 0.01 x read)",
            atLeastOnce.stream().allMatch(r -> r.shuffledPerRead() != null && r.shuffledPerRead() < SHUFFLE_ABOUT_NOTHING),
            "shuffled/read: " + join(atLeastOnce, r -> ratioText(r.shuffledPerRead()))));
    v.add(cpuOrder(rows));
    return v;
  }

  /** CPU per event STREAMING_INSERTS > STORAGE_WRITE_API > STORAGE_API_AT_LEAST_ONCE, each the mean of its runs. */
  private static Verdict cpuOrder(List<StudyRow> rows) {
    String claim = "CPU per event: STREAMING_INSERTS > STORAGE_WRITE_API > STORAGE_API_AT_LEAST_ONCE";
    String[] methods = {"STREAMING_INSERTS", "STORAGE_WRITE_API", "STORAGE_API_AT_LEAST_ONCE"};
    double[] mean = new double[3];
    StringBuilder evidence = new StringBuilder("CPU-s per M events:");
    for (int i = 0; i < 3; i++) {
      String m = methods[i];
      OptionalDouble d = rows.stream().filter(r -> r.writeMethod().equals(m) && r.cpuSecondsPerMillionEvents() != null)
          .mapToDouble(StudyRow::cpuSecondsPerMillionEvents).average();
      if (d.isEmpty()) return na(claim, "no " + m + " run with CPU measured");
      mean[i] = d.getAsDouble();
      evidence.append(String.format(Locale.ROOT, " %s %.1f", m, mean[i]));
    }
    return new Verdict(claim, mean[0] > mean[1] && mean[1] > mean[2], evidence.toString());
  }

  private static Verdict ratio(Map<Integer, StudyRow> byRun, int a, int b, java.util.function.Function<StudyRow, Double> f,
      double factor, String claim, String what) {
    StudyRow ra = byRun.get(a), rb = byRun.get(b);
    if (ra == null || rb == null) return na(claim, "needs runs " + b + " and " + a);
    Double va = f.apply(ra), vb = f.apply(rb);
    if (va == null || vb == null) return na(claim, "no max-rate search (--no-search)");
    return new Verdict(claim, va >= factor * vb,
        String.format(Locale.ROOT, "%s: run %d %,.0f, run %d %,.0f", what, a, va, b, vb));
  }

  private static Verdict single(Map<Integer, StudyRow> byRun, int run, String claim, Predicate<StudyRow> test,
      java.util.function.Function<StudyRow, String> evidence) {
    StudyRow r = byRun.get(run);
    return r == null ? na(claim, "run " + run + " not in this study") : new Verdict(claim, test.test(r), evidence.apply(r));
  }

  private static Verdict na(String claim, String why) {
    return new Verdict(claim, null, why);
  }

  private static String join(List<StudyRow> rows, java.util.function.Function<StudyRow, String> f) {
    return String.join(", ", rows.stream().map(r -> r.scenario() + " " + f.apply(r)).toList());
  }

  private static String ms(String what, double millis) {
    return String.format(Locale.ROOT, "%s %,.0f ms", what, millis);
  }

  static String ratioText(Double ratio) {
    return ratio == null ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio);
  }
}
