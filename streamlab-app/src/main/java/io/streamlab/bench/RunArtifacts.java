package io.streamlab.bench;

import java.util.regex.Pattern;

/**
 * The names of what a run leaves behind, so that runs sharing a store never share a table and
 * {@code streamlab clean} can find them again without touching anything else: a run id is
 * {@code yyyyMMdd-HHmmss-xxxx} (time, then 4 random hex digits).
 *
 * <ul>
 *   <li>run directory: {@code runs/<run id>} (several scenarios: {@code runs/<run id>/<scenario>});
 *   <li>topic: {@code events-<run id>} (a load test's: {@code loadtest-<time>});
 *   <li>table in a shared store (PostgreSQL, or a DuckDB file given with --db): {@code
 *       sl_run_<run id>_events}, its dead letters {@code sl_run_<run id>_events_failed};
 *   <li>schema of a cluster run ({@code run --cluster}): {@code sl_run_<run id>}.
 * </ul>
 */
public final class RunArtifacts {
  /** Marks every table and schema a run created in a store it shares with others. */
  public static final String PREFIX = "sl_run_";
  private static final String ID = "\\d{8}[-_]\\d{6}[-_][0-9a-f]{4}";
  /** Run tables and their dead-letter tables. */
  public static final Pattern TABLE = Pattern.compile(PREFIX + "\\d{8}_\\d{6}_[0-9a-f]{4}_\\w+");
  /** Schemas of cluster runs. */
  public static final Pattern SCHEMA = Pattern.compile(PREFIX + "\\d{8}_\\d{6}_[0-9a-f]{4}");
  /** Topics of runs. */
  public static final Pattern TOPIC = Pattern.compile("(events-" + ID + ")|(loadtest-\\d{8}-\\d{6}.*)");
  /** Directories under runs/ that a run, a load test or a sink benchmark made. */
  public static final Pattern RUN_DIRECTORY = Pattern.compile("(" + ID + ")|((loadtest|sinkbench)-\\d{8}-\\d{6}.*)");

  private RunArtifacts() {}

  /** The run's own table in a shared store. */
  public static String table(String runId) {
    return PREFIX + sqlSafe(runId) + "_events";
  }

  /** The schema of a cluster run. */
  public static String schema(String runId) {
    return PREFIX + sqlSafe(runId);
  }

  private static String sqlSafe(String runId) {
    return runId.replaceAll("[^A-Za-z0-9]", "_");
  }
}
