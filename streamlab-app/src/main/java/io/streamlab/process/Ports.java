package io.streamlab.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback interface, where every server streamlab starts binds.
 *
 * <p>A port is chosen here long before the server that gets it binds it (a Kafka node is first
 * formatted by a JVM of its own while the other nodes start), so it must stay free meanwhile.
 * The kernel's "port 0" hands out ports of its ephemeral range, the same range every outgoing
 * connection (a starting broker's, a Kafka client's) takes its local port from: one of those took
 * a broker's controller port in CI and the quorum never formed. So ports come from below that
 * range, where the kernel never hands one out by itself, at random (two streamlab runs at once
 * rarely meet) and never twice to one JVM (the nodes of one cluster never meet). What is left (a
 * program that binds that very port explicitly) the starters catch: {@link #bindFailed}.
 */
public final class Ports {
  /** Ports below this are left alone: the well-known and registered services (PostgreSQL's 5432, ...). */
  static final int LOWEST = 10_000;
  /** The range to pick from must hold at least this many ports, else the kernel's port 0 is used. */
  private static final int MIN_RANGE = 1_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private Ports() {}

  /** Where a starter gets its ports from; tests pass their own to take one away in between. */
  @FunctionalInterface
  public interface Source {
    int next() throws IOException;
  }

  /** A port free on 127.0.0.1 now, outside the kernel's ephemeral range, not handed out before in this JVM. */
  public static int freeLoopbackPort() throws IOException {
    int[] range = pickRange(ephemeralRange());
    if (range != null) {
      for (int i = 0; i < 200; i++) {
        int port = ThreadLocalRandom.current().nextInt(range[0], range[1] + 1);
        if (HANDED_OUT.add(port) && bindable(port)) return port;
      }
    }
    // no room outside the ephemeral range (or all of it taken): the kernel's choice, as before
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      HANDED_OUT.add(s.getLocalPort());
      return s.getLocalPort();
    }
  }

  /**
   * The kernel's ephemeral port range, [low, high]: Linux's ip_local_port_range, else the IANA
   * range macOS and Windows use.
   */
  static int[] ephemeralRange() {
    try {
      // readAllLines, not readString: /proc files claim size 0, and JDK 17's readString read "3" from this one
      String[] f = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
      return new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])};
    } catch (IOException | RuntimeException e) {
      return new int[] {49_152, 65_535};
    }
  }

  /** The ports to pick from given the ephemeral range: below it, else above it; null if neither is large enough. */
  static int[] pickRange(int[] ephemeral) {
    if (ephemeral[0] - LOWEST >= MIN_RANGE) return new int[] {LOWEST, ephemeral[0] - 1};
    if (65_535 - Math.max(ephemeral[1], LOWEST - 1) >= MIN_RANGE) return new int[] {Math.max(ephemeral[1] + 1, LOWEST), 65_535};
    return null;
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * True if the log, from byte {@code from} on (one start of a server, when starts append to one
   * log), says the server could not bind a port: someone took it after it was chosen.
   */
  public static boolean bindFailed(Path log, long from) {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long length = f.length();
      if (from >= length) return false;
      byte[] tail = new byte[(int) Math.min(length - from, 4 << 20)];
      f.seek(length - tail.length);
      f.readFully(tail);
      String text = new String(tail, StandardCharsets.ISO_8859_1);
      // the JDK's (and Netty's) BindException text; Flink's REST endpoint words its own
      return text.contains("Address already in use") || text.contains("Could not start rest endpoint on any port");
    } catch (IOException e) {
      return false;
    }
  }

  /** The size of a log now: where the next start's output begins, for {@link #bindFailed}. */
  public static long logSize(Path log) {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** True if something accepts connections on 127.0.0.1:{@code port}. */
  public static boolean inUse(int port) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
