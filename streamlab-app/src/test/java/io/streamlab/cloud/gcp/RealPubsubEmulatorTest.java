package io.streamlab.cloud.gcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.api.gax.rpc.NotFoundException;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import io.streamlab.loadtest.ClientSettings;
import io.streamlab.loadtest.PubSubDriver;
import io.streamlab.loadtest.PubSubEndpoint;
import io.streamlab.testing.PubSubEmulator;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --cloud=gcp}'s Pub/Sub calls (RealPubsub: Google's client library) against Google's
 * Pub/Sub emulator, found the way {@code PUBSUB_EMULATOR_HOST} finds it: the topic and the
 * subscription a run makes and removes go to the emulator, like its messages. Without the
 * emulator's settings the admin clients would go to Google with credentials (none here).
 * Skipped, saying so, where the emulator is not installed.
 */
class RealPubsubEmulatorTest {
  private static final String PROJECT = "streamlab-test";
  @TempDir Path dir;

  @Test
  void theRunsTopicAndSubscriptionAreMadeAndRemovedInTheEmulator() throws Exception {
    try (PubSubEmulator emulator = PubSubEmulator.start(dir.resolve("emulator.log"))) {
      PubSubEndpoint endpoint = PubSubEndpoint.fromEnvironment(Map.of(PubSubEndpoint.EMULATOR_VARIABLE, emulator.hostPort()));
      String topic = "projects/" + PROJECT + "/topics/sl-run";
      String subscription = "projects/" + PROJECT + "/subscriptions/sl-run";
      // a second client to look at the emulator independently of the one under test
      try (PubSubDriver look = new PubSubDriver(PROJECT, ClientSettings.DEFAULTS, endpoint);
          TopicAdminClient topics = TopicAdminClient.create(look.topicAdminSettings());
          SubscriptionAdminClient subscriptions = SubscriptionAdminClient.create(look.subscriptionAdminSettings())) {
        try (RealPubsub pubsub = RealPubsub.create(PROJECT, endpoint)) {
          pubsub.createTopic(topic);
          pubsub.createSubscription(subscription, topic);
          assertEquals(topic, topics.getTopic(topic).getName());
          assertEquals(topic, subscriptions.getSubscription(subscription).getTopic());
          assertEquals(60, subscriptions.getSubscription(subscription).getAckDeadlineSeconds());
          pubsub.deleteSubscription(subscription);
          pubsub.deleteTopic(topic);
        }
        assertThrows(NotFoundException.class, () -> subscriptions.getSubscription(subscription));
        assertThrows(NotFoundException.class, () -> topics.getTopic(topic));
      }
    }
  }
}
