package io.streamlab.study;

import java.util.Map;
import java.util.Optional;

/**
 * The study's figures for its seven runs, the one place they are kept: what {@code streamlab
 * study} prints beside the lab's. Every figure is the study's own, as quoted in issue 13 from
 * {@link #SOURCE}; a run the study gave no number for has none here (null), never a guess.
 */
public final class StudyFigures {
  /** Where every figure below comes from. */
  public static final String SOURCE = "\"Scaling a streaming workload on Apache Beam, 1 million events per second "
      + "and beyond\" (Pablo Rodriguez Defino; Apache Beam blog, https://beam.apache.org/blog/scaling-streaming-workload/, "
      + "also on the Google Cloud blog), figures as quoted in streamlab issue 13";

  /** The study's workers each had this many vCPUs (issue 13: "80+ workers x 4 vCPU"). */
  public static final int VCPUS_PER_WORKER = 4;

  /** The study's MB/s per core, at-least-once (run 7) and exactly-once (runs 4-6); see DESIGN.md. */
  public static final double MB_PER_SEC_PER_CORE_AT_LEAST_ONCE = 6.4;
  public static final double MB_PER_SEC_PER_CORE_EXACTLY_ONCE = 6.0;

  /**
   * One run of the study.
   *
   * @param run the study's run number, 1 to 7
   * @param workers the workers it needed for 1 M events/s (null: the study gives none)
   * @param workersText how the study puts it ("80+", "49")
   * @param mbPerSecPerCore the study's MB/s per core (null: not given for this run)
   * @param latency the study's latency, in its words
   * @param shuffle the study's shuffle volume, in its words
   * @param finding what the run showed
   */
  public record Run(int run, Integer workers, String workersText, Double mbPerSecPerCore, String latency,
      String shuffle, String finding) {
    /** vCPUs the study's run needed for 1 M events/s (workers x vCPUs per worker), null if not given. */
    public Integer cores() {
      return workers == null ? null : workers * VCPUS_PER_WORKER;
    }

    public String coresText() {
      return workers == null ? "n/a" : (workersText.endsWith("+") ? cores() + "+" : String.valueOf(cores()));
    }
  }

  static final Map<Integer, Run> RUNS = Map.of(
      1, new Run(1, null, "n/a", null, "backlog grew",
          "n/a", "50 keys capped the write stage: backlog grew, saw-tooth throughput"),
      2, new Run(2, 80, "80+", null, "n/a", "n/a", "512 keys fixed it, at 80+ workers"),
      3, new Run(3, 80, "80+", null, "n/a", "n/a", "auto-sharding fixed it too (its key count moves over time), at 80+ workers"),
      4, new Run(4, 49, "49", MB_PER_SEC_PER_CORE_EXACTLY_ONCE, "every row delayed by up to the 10 s trigger", "n/a",
          "Storage Write API, 10 s trigger: 49 workers"),
      5, new Run(5, null, "about as run 4", MB_PER_SEC_PER_CORE_EXACTLY_ONCE, "about as run 4 (1 s trigger)", "n/a",
          "Beam Row: about the same as run 4"),
      6, new Run(6, 42, "42", MB_PER_SEC_PER_CORE_EXACTLY_ONCE, "sub-second", "25 TB shuffled for 7 TB read",
          "Avro at a 1 s trigger: 42 workers, sub-second latency"),
      7, new Run(7, 40, "40", MB_PER_SEC_PER_CORE_AT_LEAST_ONCE, "p99 < 300 ms", "close to nothing",
          "at-least-once with the connection pool: 40 workers, no shuffle"));

  /** The study's shuffled / read ratio for its exactly-once run 6 (25 TB for 7 TB). */
  public static final double SHUFFLED_PER_READ_EXACTLY_ONCE = 25.0 / 7.0;
  /** Run 7's p99 bound in the study. */
  public static final double P99_MILLIS_AT_LEAST_ONCE = 300;

  private StudyFigures() {}

  /** The study's run a scenario reproduces: built-in scenario names start with its number ("4-storage-write-api"). */
  public static Optional<Run> forScenario(String scenario) {
    var m = java.util.regex.Pattern.compile("^([1-7])-").matcher(scenario);
    return m.find() ? Optional.of(RUNS.get(Integer.parseInt(m.group(1)))) : Optional.empty();
  }
}
