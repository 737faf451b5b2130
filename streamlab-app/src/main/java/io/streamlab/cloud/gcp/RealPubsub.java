package io.streamlab.cloud.gcp;

import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.pubsub.v1.PushConfig;
import io.streamlab.generator.MessageSink;
import io.streamlab.generator.PubsubSink;
import io.streamlab.loadtest.ClientSettings;
import io.streamlab.loadtest.PubSubDriver;
import io.streamlab.loadtest.PubSubEndpoint;

/**
 * Pub/Sub through Google's client library ({@code google-cloud-pubsub}), Application Default
 * Credentials; the generator publishes with the load test's publisher settings
 * ({@link PubSubDriver}, the study generator's batching). Never run against the real service
 * in this project's tests (no network to Google here): see the README.
 */
final class RealPubsub implements PubsubService {
  /** Long enough for a Dataflow bundle to be checkpointed before Pub/Sub redelivers it. */
  private static final int ACK_DEADLINE_SECONDS = 60;
  private final TopicAdminClient topics;
  private final SubscriptionAdminClient subscriptions;
  private PubSubDriver driver;

  private RealPubsub(TopicAdminClient topics, SubscriptionAdminClient subscriptions) {
    this.topics = topics;
    this.subscriptions = subscriptions;
  }

  static RealPubsub create() throws Exception {
    TopicAdminClient t = TopicAdminClient.create();
    try {
      return new RealPubsub(t, SubscriptionAdminClient.create());
    } catch (Exception e) {
      t.close();
      throw e;
    }
  }

  @Override
  public void createTopic(String topic) {
    topics.createTopic(topic);
  }

  @Override
  public void createSubscription(String subscription, String topic) {
    subscriptions.createSubscription(subscription, topic, PushConfig.getDefaultInstance(), ACK_DEADLINE_SECONDS);
  }

  @Override
  public void deleteSubscription(String subscription) {
    subscriptions.deleteSubscription(subscription);
  }

  @Override
  public void deleteTopic(String topic) {
    topics.deleteTopic(topic);
  }

  @Override
  public synchronized MessageSink.Factory publisher(String topic) {
    String[] parts = topic.split("/"); // projects/P/topics/T
    if (driver == null) driver = new PubSubDriver(parts[1], ClientSettings.DEFAULTS, PubSubEndpoint.fromEnvironment(System.getenv()));
    PubSubDriver d = driver;
    return () -> new PubsubSink(d, parts[3]);
  }

  @Override
  public synchronized void close() {
    if (driver != null) driver.close();
    subscriptions.close();
    topics.close();
  }
}
