package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everything streamlab starts listens on loopback only: the test starts a real command in its own
 * JVM (with its children: the Kafka broker, the ingestion JVM and its embedded Flink REST API,
 * BLOB server and RPC), reads the listening sockets of the whole process tree from
 * /proc/net/tcp{,6} while it runs, and fails on any bind that is not 127.0.0.1 or ::1.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
public class LoopbackOnlyTest {
  @TempDir Path dir;

  @Test
  void runAndItsIngestionChildListenOnLoopbackOnly() throws Exception {
    // run = a Kafka broker + the ingest child (embedded Flink) + the generator
    // Kafka's two listeners (clients, controller) + the child's Flink REST API and BLOB server
    assertLoopbackOnly("run", 4, List.of("run", "--duration=25s", "--warmup=0s", "--ratePerSec=500", "--parallelism=1",
        "--progressInterval=5s", "--runDir=" + dir.resolve("run")));
  }

  @Test
  void sinkbenchListensOnLoopbackOnly() throws Exception {
    // no Kafka here: the embedded Flink's REST API and BLOB server
    assertLoopbackOnly("sinkbench", 2, List.of("sinkbench", "--duration=10s", "--ratePerSec=500", "--parallelism=1",
        "--writeMethods=STREAMING_INSERTS", "--strategies=adaptive", "--pools=4", "--runDir=" + dir.resolve("sb")));
  }

  private void assertLoopbackOnly(String name, int expectedListeners, List<String> args) throws Exception {
    Path out = dir.resolve(name + ".out");
    Process p = JavaProcess.builder("io.streamlab.cli.Main").jvmOptions(List.of("-Xmx1g")).args(args)
        .startLoggingTo(out);
    Set<String> seen = new TreeSet<>();
    Set<String> exposed = new TreeSet<>();
    try {
      while (p.isAlive()) {
        for (String listener : listeners(p.toHandle())) {
          seen.add(listener);
          if (!isLoopback(listener)) exposed.add(listener);
        }
        Thread.sleep(1_000);
      }
      p.waitFor(5, TimeUnit.MINUTES);
    } finally {
      if (p.isAlive()) JavaProcess.stop(p, 5_000);
    }
    String output = Files.readString(out);
    System.out.println(name + " listened on: " + seen);
    assertEquals(0, p.exitValue(), output);
    // the scan saw the servers that must be there (it could not have missed them all)
    assertTrue(seen.size() >= expectedListeners, "the process tree's listening sockets were seen: " + seen + "\n" + output);
    assertTrue(exposed.isEmpty(), name + " listens beyond loopback: " + exposed);
  }

  /** "address:port" of every listening TCP socket held by the process or its descendants. */
  public static List<String> listeners(ProcessHandle root) throws IOException {
    Set<String> inodes = new HashSet<>();
    List<ProcessHandle> tree = new ArrayList<>(List.of(root));
    root.descendants().forEach(tree::add);
    for (ProcessHandle h : tree) {
      Path fds = Path.of("/proc", Long.toString(h.pid()), "fd");
      try (Stream<Path> s = Files.list(fds)) {
        for (Path fd : s.toList()) {
          try {
            String target = Files.readSymbolicLink(fd).toString();
            if (target.startsWith("socket:[")) inodes.add(target.substring(8, target.length() - 1));
          } catch (IOException gone) {
            // the descriptor closed while listing
          }
        }
      } catch (IOException gone) {
        // the process ended while listing
      }
    }
    List<String> found = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode
        if (f[3].equals("0A") && inodes.contains(f[9])) found.add(address(f[1]));
      }
    }
    return found;
  }

  /** /proc/net's hex address (little-endian 32-bit words) as text. */
  static String address(String hex) {
    String[] ap = hex.split(":");
    int port = Integer.parseInt(ap[1], 16);
    String a = ap[0];
    StringBuilder ip = new StringBuilder();
    if (a.length() == 8) {
      for (int i = 3; i >= 0; i--) ip.append(Integer.parseInt(a.substring(2 * i, 2 * i + 2), 16)).append(i > 0 ? "." : "");
      return ip + ":" + port;
    }
    for (int w = 0; w < 4; w++) {
      String word = a.substring(8 * w, 8 * w + 8);
      for (int i = 3; i >= 0; i--) ip.append(word, 2 * i, 2 * i + 2);
    }
    return "[" + ip + "]:" + port;
  }

  public static boolean isLoopback(String listener) {
    return listener.startsWith("127.") // IPv4 loopback
        || listener.startsWith("[00000000000000000000000000000001]") // ::1
        || listener.startsWith("[00000000000000000000FFFF7F"); // ::ffff:127.x.x.x
  }
}
