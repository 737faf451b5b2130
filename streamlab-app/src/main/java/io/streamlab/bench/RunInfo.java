package io.streamlab.bench;

import java.util.Map;

/**
 * What a run was: its name (the scenario's, or "run"), what it tried, how it was measured and
 * the full configuration it ran with (every flag of {@code streamlab run}, defaults included).
 */
public record RunInfo(String name, String description, RunMode mode, String startedAt,
    Map<String, String> configuration) {
  public RunInfo {
    configuration = Map.copyOf(configuration);
  }
}
