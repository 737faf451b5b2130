package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Pub/Sub driver end to end against Google's Pub/Sub emulator (gcloud's
 * {@code pubsub-emulator} component), where it is installed: the real client library over gRPC,
 * the endpoint chosen the way {@code PUBSUB_EMULATOR_HOST} chooses it. Skipped, saying so, on a
 * machine without the emulator; the service itself is never reached from here.
 */
class PubSubEmulatorTest {
  private static final Path EMULATOR =
      Path.of("/usr/lib/google-cloud-sdk/platform/pubsub-emulator/bin/cloud-pubsub-emulator");

  @TempDir Path dir;

  @Test
  void shortLoadtestThroughTheEmulatorLosesNothing() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(EMULATOR),
        "Pub/Sub emulator not installed (" + EMULATOR + "): apt-get install google-cloud-cli-pubsub-emulator");
    int port = freePort();
    Process emulator = new ProcessBuilder(EMULATOR.toString(), "--host=127.0.0.1", "--port=" + port)
        .redirectErrorStream(true).redirectOutput(dir.resolve("emulator.log").toFile()).start();
    try {
      awaitListening(port, emulator);
      PubSubEndpoint endpoint = PubSubEndpoint.fromEnvironment(Map.of("PUBSUB_EMULATOR_HOST", "127.0.0.1:" + port));
      LoadtestSettings s = new LoadtestSettings(Role.BOTH, "loadtest", "loadtest-sub", 1, MessageSizes.parse("1KB"), 1, 1, 2, 1, 500,
          Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ZERO, Duration.ofMillis(500), Duration.ofSeconds(30),
          new ClientSettings(100, 100_000, Duration.ofMillis(5), "none", 1_000, 0, 2), 0, 7);
      PointResult r;
      try (PubSubDriver driver = new PubSubDriver("streamlab-test", s.client(), endpoint)) {
        r = new LoadtestRun(driver, s, "emulator", System.out).run();
      }
      System.out.print(r.summary());
      assertTrue(r.published() > 0, r.summary());
      assertEquals(0, r.publishErrors(), r.summary());
      assertEquals(0, r.missing(), r.summary());
      assertEquals(r.published(), r.receivedDistinct(), r.summary());
      // Pub/Sub is at-least-once: a redelivery would be counted, never hidden
      assertEquals(r.received(), r.receivedDistinct() + r.duplicates());
    } finally {
      emulator.destroy();
      if (!emulator.waitFor(10, TimeUnit.SECONDS)) emulator.destroyForcibly();
    }
  }

  private static void awaitListening(int port, Process emulator) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!emulator.isAlive()) throw new IllegalStateException("the Pub/Sub emulator exited: " + emulator.exitValue());
      try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("the Pub/Sub emulator did not listen on " + port + " within 60 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

}
