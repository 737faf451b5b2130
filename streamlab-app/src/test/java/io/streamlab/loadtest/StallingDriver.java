package io.streamlab.loadtest;

import io.streamlab.formats.EventHeaders.Stamp;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real driver with one artificial stall injected: the subscriber callback, or the publisher's
 * send, sleeps once, after a given number of messages. Everything else goes to the real broker.
 */
final class StallingDriver implements BrokerDriver {
  enum Side { SUBSCRIBER, PUBLISHER }

  private final BrokerDriver real;
  private final Side side;
  private final long afterMessages;
  private final long stallMillis;
  private final AtomicLong seen = new AtomicLong();

  StallingDriver(BrokerDriver real, Side side, long afterMessages, long stallMillis) {
    this.real = real;
    this.side = side;
    this.afterMessages = afterMessages;
    this.stallMillis = stallMillis;
  }

  private void maybeStall() {
    if (seen.incrementAndGet() == afterMessages) {
      try {
        Thread.sleep(stallMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String name() {
    return real.name() + "+stalled-" + side.name().toLowerCase();
  }

  @Override
  public void createTopic(String topic, String subscription, int partitions, int largest) throws Exception {
    real.createTopic(topic, subscription, partitions, largest);
  }

  @Override
  public Publisher publisher(String topic) throws Exception {
    Publisher p = real.publisher(topic);
    if (side != Side.PUBLISHER) return p;
    return new Publisher() {
      @Override
      public CompletableFuture<Void> send(byte[] payload, Stamp stamp) {
        maybeStall();
        return p.send(payload, stamp);
      }

      @Override
      public void flush() {
        p.flush();
      }

      @Override
      public void close() {
        p.close();
      }
    };
  }

  @Override
  public Subscriber subscriber(String topic, String subscription, MessageHandler handler) throws Exception {
    if (side != Side.SUBSCRIBER) return real.subscriber(topic, subscription, handler);
    return real.subscriber(topic, subscription, (bytes, stamp) -> {
      maybeStall();
      handler.onMessage(bytes, stamp);
    });
  }

  @Override
  public void close() {
    real.close();
  }
}
