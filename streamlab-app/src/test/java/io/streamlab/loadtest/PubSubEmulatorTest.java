package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.PubSubEmulator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Pub/Sub driver end to end against Google's Pub/Sub emulator (gcloud's
 * {@code pubsub-emulator} component), where it is installed: the real client library over gRPC,
 * the endpoint chosen the way {@code PUBSUB_EMULATOR_HOST} chooses it. Skipped, saying so, on a
 * machine without the emulator; the service itself is never reached from here.
 */
class PubSubEmulatorTest {
  @TempDir Path dir;

  @Test
  void shortLoadtestThroughTheEmulatorLosesNothing() throws Exception {
    try (PubSubEmulator emulator = PubSubEmulator.start(dir.resolve("emulator.log"))) {
      PubSubEndpoint endpoint = PubSubEndpoint.fromEnvironment(Map.of("PUBSUB_EMULATOR_HOST", emulator.hostPort()));
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
    }
  }
}
