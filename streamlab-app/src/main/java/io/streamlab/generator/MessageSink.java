package io.streamlab.generator;

import io.streamlab.formats.EventHeaders;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Where a producer thread of the generator sends its messages: a Kafka topic ({@link KafkaSink})
 * or a Pub/Sub topic ({@link PubsubSink}). A message is its bytes with streamlab's headers (event
 * identity and intended send time, the envelope's); each sink carries them its broker's way.
 */
public interface MessageSink extends AutoCloseable {
  /**
   * Sends asynchronously (may block while the client's buffer is full); {@code done} is called once
   * with null when the broker acknowledged the message, or with the error when it will not.
   */
  void send(byte[] value, Headers headers, Consumer<Exception> done);

  /**
   * One plain event with its identity and intended send time: as {@link EventHeaders} unless the
   * broker has a cheaper place for them (Kafka: the record key, {@link KafkaSink}).
   */
  default void send(EventHeaders.Stamp identity, byte[] value, Consumer<Exception> done) {
    RecordHeaders headers = new RecordHeaders();
    EventHeaders.write(headers, identity);
    send(value, headers, done);
  }

  /** Sends whatever the client still batches and waits for the acknowledgements. */
  void flush();

  @Override
  void close();

  /** One sink per producer thread. */
  @FunctionalInterface
  interface Factory {
    MessageSink open();
  }
}
