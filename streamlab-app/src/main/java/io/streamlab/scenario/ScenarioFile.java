package io.streamlab.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * The scenario file format: {@code key = value} lines, where a key is any {@code streamlab run}
 * flag without its leading dashes; {@code #} starts a comment; the comment lines before the first
 * key describe the scenario. Properties-like on purpose: no YAML parser to learn, and every line
 * maps onto exactly one flag.
 */
public final class ScenarioFile {
  private ScenarioFile() {}

  /** @throws IllegalArgumentException naming the source and line of a malformed line */
  public static Scenario parse(String name, String text, String source) {
    List<String> description = new ArrayList<>();
    List<Scenario.Setting> settings = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) continue;
      if (line.startsWith("#")) {
        if (settings.isEmpty()) description.add(line.substring(1).strip());
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(source + " line " + (i + 1) + ": expected 'key = value', got '" + line + "'");
      }
      String key = line.substring(0, eq).strip();
      if (key.startsWith("-")) {
        throw new IllegalArgumentException(source + " line " + (i + 1) + ": write the key without dashes: '"
            + key.replaceFirst("^-+", "") + "'");
      }
      settings.add(new Scenario.Setting(key, line.substring(eq + 1).strip(), i + 1));
    }
    return new Scenario(name, String.join(" ", description).strip(), List.copyOf(settings), source);
  }
}
