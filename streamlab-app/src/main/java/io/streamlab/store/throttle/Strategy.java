package io.streamlab.store.throttle;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The throttling strategies by their command-line names. */
public enum Strategy {
  NONE("none"),
  ADAPTIVE("adaptive"),
  SHARED_BACKOFF("shared-backoff"),
  RETRY_ANY("retry-any");

  private final String cliName;

  Strategy(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  public static Strategy parse(String name) {
    for (Strategy s : values()) if (s.cliName.equalsIgnoreCase(name.trim())) return s;
    throw new IllegalArgumentException("unknown throttling strategy '" + name + "'; choose one of " + names());
  }

  public static String names() {
    return Arrays.stream(values()).map(Strategy::cliName).collect(Collectors.joining(", "));
  }

  ThrottlingStrategy create(Tuning tuning, ThrottleStats stats) {
    return switch (this) {
      case NONE -> new NoThrottling(tuning, stats);
      case ADAPTIVE -> new AdaptiveThrottling(tuning, stats);
      case SHARED_BACKOFF -> new SharedBackoffThrottling(tuning, stats);
      case RETRY_ANY -> new RetryAnyThrottling(tuning, stats);
    };
  }

  @Override
  public String toString() {
    return cliName;
  }
}
