package io.streamlab.formats;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * streamlab's message headers as Pub/Sub message attributes and back. Attributes are strings, so
 * the numeric headers ({@link EventHeaders} identity and send time, the envelope's count) travel
 * as decimal text under the same names ({@code sl-pid=7}, as the load test's Pub/Sub driver
 * writes them), every other header as its text. Translating back gives the same binary headers a
 * Kafka message carries, so one front stage reads both brokers.
 */
public final class PubsubAttributes {
  /** Header under which the Pub/Sub message id travels into dead letters (never read as identity). */
  public static final String MESSAGE_ID = "pubsub-message-id";
  /** Prefix of a header holding a numeric attribute that was not a number: the text is kept, the header is not. */
  public static final String UNREADABLE_PREFIX = "unreadable:";

  /** Numeric headers and their width in bytes. */
  private static final Map<String, Integer> NUMERIC = Map.of(
      EventHeaders.PRODUCER_ID, 4, EventHeaders.SEQUENCE, 8, EventHeaders.SEND_TIME_MICROS, 8,
      Envelope.COUNT_HEADER, 4);

  private PubsubAttributes() {}

  /** The attributes of one plain event. */
  public static Map<String, String> of(EventHeaders.Stamp stamp) {
    RecordHeaders h = new RecordHeaders();
    EventHeaders.write(h, stamp);
    return fromHeaders(h);
  }

  /** Kafka-style headers (as the generator and {@link Envelope} write them) as attributes. */
  public static Map<String, String> fromHeaders(Headers headers) {
    Map<String, String> a = new LinkedHashMap<>();
    for (Header h : headers) {
      byte[] v = h.value();
      Integer width = NUMERIC.get(h.key());
      if (v != null && width != null && v.length == width) {
        ByteBuffer b = ByteBuffer.wrap(v);
        a.put(h.key(), Long.toString(width == 4 ? b.getInt() : b.getLong()));
      } else {
        a.put(h.key(), v == null ? "" : new String(v, StandardCharsets.UTF_8));
      }
    }
    return a;
  }

  /**
   * Attributes as the headers a Kafka message of the same event carries. A numeric attribute that
   * is not a number of its width is left out (so the event is dead-lettered for a missing header,
   * never read with a made-up identity) and its text kept under {@value #UNREADABLE_PREFIX}NAME.
   *
   * @param messageId Pub/Sub's id of the message, kept as {@value #MESSAGE_ID}; null for none
   */
  public static Headers toHeaders(Map<String, String> attributes, String messageId) {
    RecordHeaders h = new RecordHeaders();
    if (attributes != null) {
      for (Map.Entry<String, String> e : attributes.entrySet()) {
        String value = e.getValue() == null ? "" : e.getValue();
        Integer width = NUMERIC.get(e.getKey());
        if (width == null) {
          h.add(e.getKey(), value.getBytes(StandardCharsets.UTF_8));
          continue;
        }
        byte[] number = number(value, width);
        if (number != null) h.add(e.getKey(), number);
        else h.add(UNREADABLE_PREFIX + e.getKey(), value.getBytes(StandardCharsets.UTF_8));
      }
    }
    if (messageId != null) h.add(MESSAGE_ID, messageId.getBytes(StandardCharsets.UTF_8));
    return h;
  }

  /** The stamp of a message's attributes; null when it carries none (not written by streamlab). */
  public static EventHeaders.Stamp stamp(Map<String, String> attributes) {
    try {
      return EventHeaders.read(toHeaders(attributes, null));
    } catch (IllegalArgumentException noStamp) {
      return null;
    }
  }

  private static byte[] number(String text, int width) {
    try {
      long n = Long.parseLong(text.trim());
      if (width == 4) {
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) return null;
        return ByteBuffer.allocate(4).putInt((int) n).array();
      }
      return ByteBuffer.allocate(8).putLong(n).array();
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }
}
