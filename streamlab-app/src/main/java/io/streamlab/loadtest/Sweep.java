package io.streamlab.loadtest;

import java.util.ArrayList;
import java.util.List;

/**
 * The original framework's presets: one load-test point per value of one parameter, everything
 * else as given. Each point gets its own topic and subscription so points never read each
 * other's messages.
 */
public enum Sweep {
  /** No sweep: the one point given. */
  NONE,
  /** 1..N cores, expressed as publishing threads (cores x threadsPerCore). */
  CORES,
  /** Threads per core 1, 2, 4, 8, 16. */
  THREADS,
  /** Message sizes 1 KB .. 9 MB, as the original presets. */
  MESSAGE_SIZE;

  static final List<Integer> THREADS_PER_CORE = List.of(1, 2, 4, 8, 16);
  static final List<String> MESSAGE_SIZES = List.of("1KB", "10KB", "100KB", "1MB", "9MB");

  /** "cores", "threads", "message-size" as on the command line. */
  public static Sweep parse(String name) {
    for (Sweep s : values()) {
      if (s.cliName().equals(name.trim().toLowerCase())) return s;
    }
    throw new IllegalArgumentException("--sweep must be one of none, cores, threads, message-size; was '" + name + "'");
  }

  public String cliName() {
    return name().toLowerCase().replace('_', '-');
  }

  /** A labelled point of the sweep. */
  public record Point(String label, LoadtestSettings settings) {}

  /** @param maxCores the highest core count of a cores sweep */
  public List<Point> points(LoadtestSettings base, int maxCores) {
    List<Point> points = new ArrayList<>();
    switch (this) {
      case NONE -> points.add(new Point("point", base));
      case CORES -> {
        for (int c = 1; c <= maxCores; c++) points.add(new Point("cores=" + c, base.withCores(c)));
      }
      case THREADS -> {
        for (int t : THREADS_PER_CORE) points.add(new Point("threadsPerCore=" + t, base.withThreadsPerCore(t)));
      }
      case MESSAGE_SIZE -> {
        for (String size : MESSAGE_SIZES) {
          points.add(new Point("messageSize=" + size, base.withMessageSizes(MessageSizes.parse(size))));
        }
      }
    }
    if (points.size() == 1) return points;
    List<Point> ownTopics = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      ownTopics.add(new Point(p.label(), p.settings().withTopic(base.topic() + "-" + i, base.subscription() + "-" + i)));
    }
    return ownTopics;
  }
}
