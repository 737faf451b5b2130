package io.streamlab.cloud.gcp;

import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PubsubAttributes;
import io.streamlab.generator.MessageSink;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.header.Headers;

/**
 * A FAKE of Pub/Sub for tests: topics and subscriptions are names in memory, a published
 * message is acknowledged at once and queued for each subscription of its topic, with the
 * attributes the real publisher sets ({@link PubsubAttributes}). No ack deadlines, no
 * redelivery, no ordering guarantees to model.
 */
public final class FakePubsub implements PubsubService {
  private final CallLog calls;
  private final Map<String, String> subscriptionTopic = new ConcurrentHashMap<>();
  private final Map<String, Queue<EventHeaders.Stamp>> queues = new ConcurrentHashMap<>();
  private final Map<String, Boolean> topics = new ConcurrentHashMap<>();

  public FakePubsub(CallLog calls) {
    this.calls = calls;
  }

  @Override
  public void createTopic(String topic) {
    calls.add("pubsub.createTopic " + topic);
    if (topics.putIfAbsent(topic, true) != null) throw new IllegalStateException("FAKE: topic exists: " + topic);
  }

  @Override
  public void createSubscription(String subscription, String topic) {
    calls.add("pubsub.createSubscription " + subscription);
    if (!topics.containsKey(topic)) throw new IllegalStateException("FAKE: no topic " + topic);
    subscriptionTopic.put(subscription, topic);
    queues.put(subscription, new ConcurrentLinkedQueue<>());
  }

  @Override
  public void deleteSubscription(String subscription) {
    calls.add("pubsub.deleteSubscription " + subscription);
    subscriptionTopic.remove(subscription);
    queues.remove(subscription);
  }

  @Override
  public void deleteTopic(String topic) {
    calls.add("pubsub.deleteTopic " + topic);
    topics.remove(topic);
  }

  /** The next message of {@code subscription}'s, as the event stamp its attributes carry; null when none waits. */
  EventHeaders.Stamp pull(String subscription) {
    Queue<EventHeaders.Stamp> q = queues.get(subscription);
    return q == null ? null : q.poll();
  }

  /** Topics and subscriptions that exist. */
  public int resources() {
    return topics.size() + subscriptionTopic.size();
  }

  @Override
  public MessageSink.Factory publisher(String topic) {
    return () -> new MessageSink() {
      @Override
      public void send(byte[] value, Headers headers, java.util.function.Consumer<Exception> done) {
        if (!topics.containsKey(topic)) {
          done.accept(new IllegalStateException("FAKE: no topic " + topic));
          return;
        }
        EventHeaders.Stamp stamp = PubsubAttributes.stamp(PubsubAttributes.fromHeaders(headers));
        subscriptionTopic.forEach((sub, t) -> {
          if (t.equals(topic)) queues.get(sub).add(stamp);
        });
        done.accept(null);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }
}
