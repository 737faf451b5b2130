package io.streamlab.scenario;

import java.util.List;

/**
 * A named set of {@code streamlab run} flags, as the study had one launch script per run.
 *
 * @param name what the user types ({@code streamlab run 1-default})
 * @param description the file's leading comment lines
 * @param settings the file's keys and values, in file order
 * @param source where it was read from (for error messages and the report)
 */
public record Scenario(String name, String description, List<Setting> settings, String source) {
  /** One {@code key = value} line of a scenario file. */
  public record Setting(String key, String value, int line) {}
}
