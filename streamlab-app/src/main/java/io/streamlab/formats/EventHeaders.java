package io.streamlab.formats;

import java.nio.ByteBuffer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The per-event message headers every streamlab producer sets: who produced the event, its
 * per-producer sequence number and its intended send time. They let every run count lost and
 * duplicated rows exactly and measure latency from when the event should have been sent, so a
 * slow producer or pipeline cannot hide queueing delay (coordinated omission).
 */
public final class EventHeaders {
  public static final String PRODUCER_ID = "sl-pid";
  public static final String SEQUENCE = "sl-seq";
  public static final String SEND_TIME_MICROS = "sl-ts";

  /** Headers whose value is a big-endian number (the envelope's event count among them). */
  private static final java.util.Set<String> NUMERIC = java.util.Set.of(PRODUCER_ID, SEQUENCE, SEND_TIME_MICROS, "sl-count");

  private EventHeaders() {}

  private static boolean isPrintable(byte[] v) {
    for (byte b : v) if (b < 0x20 || b > 0x7e) return false;
    return true;
  }

  public static void write(Headers headers, Stamp stamp) {
    write(headers, stamp.producerId(), stamp.sequence(), stamp.sendTimeMicros());
  }

  public static void write(Headers headers, int producerId, long sequence, long sendTimeMicros) {
    headers.add(PRODUCER_ID, ByteBuffer.allocate(4).putInt(producerId).array());
    headers.add(SEQUENCE, ByteBuffer.allocate(8).putLong(sequence).array());
    headers.add(SEND_TIME_MICROS, ByteBuffer.allocate(8).putLong(sendTimeMicros).array());
  }

  /** The event's identity read back from message headers. */
  public record Stamp(int producerId, long sequence, long sendTimeMicros) {
    /**
     * The identity of a message without streamlab's headers (a user's own topic): the offset in
     * its partition, under the producer id {@code -1 - partition}. Header identities are never
     * negative, so the two cannot collide.
     */
    public static Stamp ofOffset(int partition, long offset, long timestampMillis) {
      return new Stamp(-1 - partition, offset, Math.max(0, timestampMillis) * 1000);
    }

    public String eventId() {
      return producerId + "-" + sequence;
    }
  }

  /**
   * @throws IllegalArgumentException naming the header that is missing or malformed: not exactly
   *     its width, negative, or ASCII digits (a number written as text, e.g. "9005", which read as
   *     binary would be a plausible but wrong identity)
   */
  public static Stamp read(Headers headers) {
    return new Stamp(
        (int) number(headers, PRODUCER_ID, 4),
        number(headers, SEQUENCE, 8),
        number(headers, SEND_TIME_MICROS, 8));
  }

  /** True when the message carries none of the identity headers: a user's own message, not streamlab's. */
  public static boolean absent(Headers headers) {
    return headers == null || (headers.lastHeader(PRODUCER_ID) == null && headers.lastHeader(SEQUENCE) == null
        && headers.lastHeader(SEND_TIME_MICROS) == null);
  }

  private static long number(Headers headers, String key, int width) {
    Header h = headers == null ? null : headers.lastHeader(key);
    if (h == null || h.value() == null || h.value().length != width) {
      throw new IllegalArgumentException("message header '" + key + "' missing or not " + width + " bytes");
    }
    if (allDigits(h.value())) {
      throw new IllegalArgumentException("message header '" + key + "' is the text \""
          + new String(h.value(), java.nio.charset.StandardCharsets.US_ASCII) + "\", not a " + width
          + "-byte big-endian number");
    }
    ByteBuffer b = ByteBuffer.wrap(h.value());
    long v = width == 4 ? b.getInt() : b.getLong();
    if (v < 0) throw new IllegalArgumentException("message header '" + key + "' is negative (" + v + ")");
    return v;
  }

  /**
   * A value made only of ASCII digits is a number written as text. As binary it would be at
   * least 0x30303030 (808,464,432) for a producer id and 3.5e18 for a sequence or a time, which
   * streamlab's producers never use ({@code generate}'s producer ids stay below 2^29).
   */
  private static boolean allDigits(byte[] v) {
    for (byte b : v) if (b < '0' || b > '9') return false;
    return true;
  }

  /** Headers rendered as text for the dead-letter table (values shown as numbers where known). */
  public static String describe(Headers headers) {
    if (headers == null) return "";
    StringBuilder sb = new StringBuilder();
    for (Header h : headers) {
      if (sb.length() > 0) sb.append(", ");
      sb.append(h.key()).append('=');
      byte[] v = h.value();
      if (v != null && (v.length == 4 || v.length == 8) && NUMERIC.contains(h.key())) {
        sb.append(v.length == 4 ? ByteBuffer.wrap(v).getInt() : ByteBuffer.wrap(v).getLong());
      } else if (v != null && v.length <= 64 && isPrintable(v)) {
        sb.append(new String(v, java.nio.charset.StandardCharsets.US_ASCII));
      } else {
        sb.append(v == null ? "null" : v.length + "B");
      }
    }
    return sb.toString();
  }
}
