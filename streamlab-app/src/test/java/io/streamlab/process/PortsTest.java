package io.streamlab.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PortsTest {
  @TempDir Path dir;

  @Test
  void portsComeFromOutsideTheKernelsEphemeralRangeAndNeverTwice() throws Exception {
    int[] ephemeral = Ports.ephemeralRange();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = Ports.freeLoopbackPort();
      assertTrue(port < ephemeral[0] || port > ephemeral[1], port + " is in the ephemeral range " + ephemeral[0] + "-" + ephemeral[1]);
      assertTrue(port >= Ports.LOWEST, port + " is below " + Ports.LOWEST);
      assertTrue(seen.add(port), port + " handed out twice");
      // and it is free: a server can bind it on loopback
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertEquals(port, s.getLocalPort());
      }
    }
  }

  @Test
  void theEphemeralRangeIsTheKernelsOwn() throws Exception {
    Path proc = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    assumeTrue(Files.isReadable(proc), "not Linux");
    // read another way than Ports does: a misread range falls back to 49152-65535 silently
    String[] f;
    try (var in = Files.newInputStream(proc)) {
      f = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim().split("\\s+");
    }
    assertArrayEquals(new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])}, Ports.ephemeralRange());
  }

  @Test
  void rangeBelowTheEphemeralOneElseAboveElseNone() {
    assertArrayEquals(new int[] {10_000, 32_767}, Ports.pickRange(new int[] {32_768, 60_999}));
    assertArrayEquals(new int[] {10_000, 49_151}, Ports.pickRange(new int[] {49_152, 65_535}));
    assertArrayEquals(new int[] {40_001, 65_535}, Ports.pickRange(new int[] {1_024, 40_000}));
    assertNull(Ports.pickRange(new int[] {1_024, 65_000}));
  }

  @Test
  void aBindErrorCountsOnlyInTheOutputOfTheLatestStart() throws Exception {
    Path log = dir.resolve("member.log");
    Files.writeString(log, "started\njava.net.BindException: Address already in use\n");
    long second = Ports.logSize(log);
    Files.writeString(log, "started again\nsome other failure\n", java.nio.file.StandardOpenOption.APPEND);
    assertTrue(Ports.bindFailed(log, 0));
    assertFalse(Ports.bindFailed(log, second), "the first start's bind error is not the second's");
    assertFalse(Ports.bindFailed(dir.resolve("absent.log"), 0));
  }
}
