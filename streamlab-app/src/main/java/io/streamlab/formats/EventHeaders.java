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

  public static void write(Headers headers, int producerId, long sequence, long sendTimeMicros) {
    headers.add(PRODUCER_ID, ByteBuffer.allocate(4).putInt(producerId).array());
    headers.add(SEQUENCE, ByteBuffer.allocate(8).putLong(sequence).array());
    headers.add(SEND_TIME_MICROS, ByteBuffer.allocate(8).putLong(sendTimeMicros).array());
  }

  /** The event's identity read back from message headers. */
  public record Stamp(int producerId, long sequence, long sendTimeMicros) {
    public String eventId() {
      return producerId + "-" + sequence;
    }
  }

  /** @throws IllegalArgumentException naming the header that is missing or malformed */
  public static Stamp read(Headers headers) {
    return new Stamp(
        (int) number(headers, PRODUCER_ID, 4),
        number(headers, SEQUENCE, 8),
        number(headers, SEND_TIME_MICROS, 8));
  }

  private static long number(Headers headers, String key, int width) {
    Header h = headers == null ? null : headers.lastHeader(key);
    if (h == null || h.value() == null || h.value().length != width) {
      throw new IllegalArgumentException("message header '" + key + "' missing or not " + width + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(h.value());
    return width == 4 ? b.getInt() : b.getLong();
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
