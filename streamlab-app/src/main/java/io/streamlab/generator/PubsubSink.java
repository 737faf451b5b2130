package io.streamlab.generator;

import com.google.api.core.ApiFutureCallback;
import com.google.api.core.ApiFutures;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PubsubMessage;
import io.streamlab.formats.PubsubAttributes;
import io.streamlab.loadtest.PubSubDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Headers;

/**
 * A Pub/Sub topic through the load test's Pub/Sub publisher ({@link PubSubDriver#publisherBuilder}:
 * its batching and flow control, {@code PUBSUB_EMULATOR_HOST} honoured), the headers as message
 * attributes ({@link PubsubAttributes}).
 */
public final class PubsubSink implements MessageSink {
  private final Publisher publisher;

  /** @param topic the topic's id within the driver's project */
  public PubsubSink(PubSubDriver driver, String topic) {
    try {
      this.publisher = driver.publisherBuilder(topic).build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a Pub/Sub publisher for " + topic, e);
    }
  }

  @Override
  public void send(byte[] value, Headers headers, Consumer<Exception> done) {
    PubsubMessage m = PubsubMessage.newBuilder().setData(ByteString.copyFrom(value))
        .putAllAttributes(PubsubAttributes.fromHeaders(headers)).build();
    ApiFutures.addCallback(publisher.publish(m), new ApiFutureCallback<String>() {
      @Override
      public void onSuccess(String messageId) {
        done.accept(null);
      }

      @Override
      public void onFailure(Throwable error) {
        done.accept(error instanceof Exception e ? e : new RuntimeException(error));
      }
    }, MoreExecutors.directExecutor());
  }

  @Override
  public void flush() {
    publisher.publishAllOutstanding();
  }

  @Override
  public void close() {
    publisher.shutdown(); // publishes what is outstanding first
    try {
      publisher.awaitTermination(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
