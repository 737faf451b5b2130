package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.batching.FlowController.LimitExceededBehavior;
import com.google.pubsub.v1.PubsubMessage;
import io.streamlab.formats.EventHeaders.Stamp;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Pub/Sub driver's configuration, checked without a network (Pub/Sub cannot be reached
 * here): settings built from the flags, the emulator endpoint, and the stamp in attributes.
 * Clients are built against an emulator address nobody listens on: gRPC connects lazily, so
 * building succeeds and the settings the client will use can be read back from it.
 */
class PubSubDriverTest {
  private static final PubSubEndpoint NOWHERE = PubSubEndpoint.fromEnvironment(Map.of("PUBSUB_EMULATOR_HOST", "127.0.0.1:9"));
  private static final ClientSettings TUNED = new ClientSettings(1_000, 5_000_000, Duration.ofMillis(50), "gzip",
      20_000, 200_000_000, 4);

  @Test
  void emulatorHostMeansPlaintextWithoutCredentials() {
    assertEquals(new PubSubEndpoint("localhost:8085", true),
        PubSubEndpoint.fromEnvironment(Map.of("PUBSUB_EMULATOR_HOST", "localhost:8085")));
    PubSubEndpoint google = PubSubEndpoint.fromEnvironment(Map.of());
    assertFalse(google.emulator());
    assertNull(google.target());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PubSubEndpoint.fromEnvironment(Map.of("PUBSUB_EMULATOR_HOST", "http://localhost")));
    assertTrue(e.getMessage().startsWith("PUBSUB_EMULATOR_HOST must be host:port"), e.getMessage());
  }

  @Test
  void defaultsAreTheClientLibrarys() {
    try (PubSubDriver d = new PubSubDriver("p", ClientSettings.DEFAULTS, NOWHERE)) {
      BatchingSettings defaults = com.google.cloud.pubsub.v1.Publisher.Builder.getDefaultBatchingSettings();
      BatchingSettings b = d.batchingSettings();
      assertEquals(defaults.getElementCountThreshold(), b.getElementCountThreshold());
      assertEquals(defaults.getRequestByteThreshold(), b.getRequestByteThreshold());
      assertEquals(defaults.getDelayThresholdDuration(), b.getDelayThresholdDuration());
      assertEquals(com.google.cloud.pubsub.v1.Subscriber.Builder.getDefaultFlowControlSettings(), d.flowControlSettings());
    }
  }

  @Test
  void batchingAndFlowControlComeFromTheFlags() throws Exception {
    try (PubSubDriver d = new PubSubDriver("p", TUNED, NOWHERE)) {
      com.google.cloud.pubsub.v1.Publisher publisher = d.publisherBuilder("topic").build();
      try {
        BatchingSettings b = publisher.getBatchingSettings();
        assertEquals(1_000L, b.getElementCountThreshold());
        assertEquals(5_000_000L, b.getRequestByteThreshold());
        assertEquals(Duration.ofMillis(50), b.getDelayThresholdDuration());
        assertEquals(LimitExceededBehavior.Block, b.getFlowControlSettings().getLimitExceededBehavior(),
            "an unlimited rate blocks the publisher instead of exhausting memory");
        assertEquals("projects/p/topics/topic", publisher.getTopicNameString());
      } finally {
        publisher.shutdown();
      }
      com.google.cloud.pubsub.v1.Subscriber subscriber = d.subscriberBuilder("sub", (bytes, stamp) -> {}).build();
      FlowControlSettings f = subscriber.getFlowControlSettings();
      assertEquals(20_000L, f.getMaxOutstandingElementCount());
      assertEquals(200_000_000L, f.getMaxOutstandingRequestBytes());
      assertEquals("projects/p/subscriptions/sub", subscriber.getSubscriptionNameString());
    }
  }

  @Test
  void stampTravelsInAttributes() {
    PubsubMessage m = PubSubDriver.message(new byte[] {1, 2, 3}, new Stamp(7, 123_456_789_012L, 1_700_000_000_000_000L));
    assertEquals(new Stamp(7, 123_456_789_012L, 1_700_000_000_000_000L), PubSubDriver.stamp(m));
    assertEquals(3, m.getData().size());
    assertEquals("7", m.getAttributesOrThrow("sl-pid"));
    assertNull(PubSubDriver.stamp(PubsubMessage.getDefaultInstance()), "someone else's message: no stamp");
  }

  @Test
  void missingProjectIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PubSubDriver(" ", ClientSettings.DEFAULTS, NOWHERE));
    assertTrue(e.getMessage().contains("--pubsubProject"));
  }
}
