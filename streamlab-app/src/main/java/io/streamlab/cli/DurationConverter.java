package io.streamlab.cli;

import java.time.Duration;
import picocli.CommandLine;

/** "500ms", "30s", "2m", "1h", or a plain number of seconds. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** A duration as the flags take it, or as ISO-8601 ("PT0.075S", what Duration.toString() writes). */
  public static Duration parse(String value) {
    String v = value.trim().toLowerCase();
    if (v.startsWith("pt")) return Duration.parse(value.trim());
    try {
      if (v.endsWith("ms")) return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      if (v.endsWith("s")) return Duration.ofMillis((long) (Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
      if (v.endsWith("m")) return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
      if (v.endsWith("h")) return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
      return Duration.ofMillis((long) (Double.parseDouble(v) * 1000));
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration (examples: 500ms, 30s, 2m, 1h)");
    }
  }
}
