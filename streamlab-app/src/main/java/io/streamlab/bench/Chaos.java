package io.streamlab.bench;

/**
 * {@code --chaos=kill-ingest:N}: kill -9 the ingestion process N times at random moments of the
 * measurement window, restarting it each time.
 */
public record Chaos(int ingestKills) {
  public static final Chaos NONE = new Chaos(0);

  public static Chaos parse(String spec) {
    if (spec == null || spec.isBlank() || spec.equals("none")) return NONE;
    if (spec.startsWith("kill-ingest:")) {
      try {
        int n = Integer.parseInt(spec.substring("kill-ingest:".length()));
        if (n >= 0) return new Chaos(n);
      } catch (NumberFormatException ignored) {
        // reported below
      }
    }
    throw new IllegalArgumentException("--chaos must be kill-ingest:N (N >= 0), got: " + spec);
  }

  /**
   * {@code n} random moments ({@link System#nanoTime()} terms, sorted) within the middle 80 % of
   * a phase of {@code duration} starting at {@code startNanos}: a kill at the very start or end
   * would test less.
   */
  static long[] moments(int n, long startNanos, java.time.Duration duration) {
    long[] at = new long[n];
    java.util.Random random = new java.util.Random();
    for (int i = 0; i < n; i++) at[i] = startNanos + (long) ((0.1 + 0.8 * random.nextDouble()) * duration.toNanos());
    java.util.Arrays.sort(at);
    return at;
  }
}
