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
 * ({@link PubSubDriver}, the study generator's batching). With {@code PUBSUB_EMULATOR_HOST} set,
 * all of it, the topic and subscription made and removed too, goes to the emulator without
 * credentials ({@link PubSubEndpoint}). Tested here against the emulator only, never against the
 * real service (no network to Google here): see the README.
 */
final class RealPubsub implements PubsubService {
  /** Long enough for a Dataflow bundle to be checkpointed before Pub/Sub redelivers it. */
  private static final int ACK_DEADLINE_SECONDS = 60;
  private final PubSubDriver driver;
  private final TopicAdminClient topics;
  private final SubscriptionAdminClient subscriptions;

  private RealPubsub(PubSubDriver driver, TopicAdminClient topics, SubscriptionAdminClient subscriptions) {
    this.driver = driver;
    this.topics = topics;
    this.subscriptions = subscriptions;
  }

  /** Pub/Sub of {@code project} at {@code endpoint}: Google's, or the emulator's ({@link PubSubEndpoint#fromEnvironment}). */
  static RealPubsub create(String project, PubSubEndpoint endpoint) throws Exception {
    // one driver: the publishers and the admin clients share its endpoint (and the emulator's channel)
    PubSubDriver driver = new PubSubDriver(project, ClientSettings.DEFAULTS, endpoint);
    TopicAdminClient t = null;
    try {
      t = TopicAdminClient.create(driver.topicAdminSettings());
      return new RealPubsub(driver, t, SubscriptionAdminClient.create(driver.subscriptionAdminSettings()));
    } catch (Exception e) {
      if (t != null) t.close();
      driver.close();
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
  public MessageSink.Factory publisher(String topic) {
    String id = topic.substring(topic.lastIndexOf('/') + 1); // projects/P/topics/T, P the driver's
    return () -> new PubsubSink(driver, id);
  }

  @Override
  public void close() {
    subscriptions.close();
    topics.close();
    driver.close(); // last: the admin clients use its channel to the emulator
  }
}
