package io.streamlab.cloud.gcp;

import io.streamlab.generator.MessageSink;

/**
 * What a {@code --cloud=gcp} run asks of Pub/Sub: a topic and its subscription made and removed,
 * and publishers for the generator. {@link RealPubsub} is Google's client library; tests use a
 * named fake. Names are full paths ({@code projects/P/topics/T}, {@code projects/P/subscriptions/S}).
 */
public interface PubsubService extends AutoCloseable {
  void createTopic(String topic) throws Exception;

  /** A pull subscription to {@code topic}; it must exist before publishing, or Pub/Sub keeps nothing for it. */
  void createSubscription(String subscription, String topic) throws Exception;

  void deleteSubscription(String subscription) throws Exception;

  void deleteTopic(String topic) throws Exception;

  /** The generator's sinks into {@code topic}, one per producer thread. */
  MessageSink.Factory publisher(String topic);

  @Override
  default void close() {}
}
