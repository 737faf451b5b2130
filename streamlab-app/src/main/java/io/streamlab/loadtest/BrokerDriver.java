package io.streamlab.loadtest;

import io.streamlab.formats.EventHeaders.Stamp;
import java.util.concurrent.CompletableFuture;

/**
 * The seam between the load test and a broker's client library: create a topic, publish
 * asynchronously, subscribe with a callback. Every message carries its {@link Stamp} (producer
 * id, sequence, intended send time) beside the payload, in the broker's own header mechanism.
 */
public interface BrokerDriver extends AutoCloseable {
  /** Short name for reports ("kafka", "pubsub"). */
  String name();

  /**
   * Makes the topic (and, where the broker needs one to retain messages, the subscription) ready.
   * An existing topic is kept as it is.
   *
   * @param largestMessageBytes the largest payload the test will send, for brokers that limit it
   */
  void createTopic(String topic, String subscription, int partitions, int largestMessageBytes) throws Exception;

  /** A client that publishes to {@code topic}; one per publisher in the test. */
  Publisher publisher(String topic) throws Exception;

  /** A started subscriber that calls {@code handler} for every message received. */
  Subscriber subscriber(String topic, String subscription, MessageHandler handler) throws Exception;

  @Override
  void close();

  /** Publishes asynchronously; safe to call from several threads. */
  interface Publisher extends AutoCloseable {
    /**
     * Hands the message to the client. May block when the client's own buffer is full (that
     * back-pressure is part of what is measured). The future completes when the broker
     * acknowledged the message, exceptionally if it will not.
     */
    CompletableFuture<Void> send(byte[] payload, Stamp stamp);

    /** Sends whatever the client still batches and waits for the acknowledgements. */
    void flush();

    @Override
    void close();
  }

  /** Receives until closed. */
  interface Subscriber extends AutoCloseable {
    /**
     * Messages the broker holds for this subscriber that it has not yet handed to the handler, as
     * of its last fetch; -1 when the client cannot tell, {@link Long#MAX_VALUE} while one that can has
     * not fetched yet (counted as behind). A subscribe-only run stops once this is 0
     * rather than after a quiet spell, which a loaded machine can stretch past the last message.
     */
    default long lag() {
      return -1;
    }

    @Override
    void close();
  }

  /** Called once per message received, on the client's threads. */
  @FunctionalInterface
  interface MessageHandler {
    /** @param stamp null for a message without a streamlab stamp (not written by a load test) */
    void onMessage(int payloadBytes, Stamp stamp);
  }
}
