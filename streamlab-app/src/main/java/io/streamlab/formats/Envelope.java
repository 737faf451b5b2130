package io.streamlab.formats;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Several encoded events of one producer batched into one broker message and compressed, as the
 * original suite's --compression did. The message header {@value #HEADER} marks an envelope and
 * names its compression; {@value #COUNT_HEADER} holds the number of events; the usual
 * {@link EventHeaders} give the producer and the <em>first</em> event's sequence and send time,
 * so even an envelope that cannot be opened still says which events it held.
 *
 * <p>Body (before compression): magic {@code 'S','L',1}, int count, then per event int producer
 * id, long sequence, long intended send time (epoch us), int length, payload bytes. Each event's
 * own headers travel inside the envelope, so per-event identity and latency survive batching.
 */
public final class Envelope {
  public static final String HEADER = "sl-envelope";
  public static final String COUNT_HEADER = "sl-count";
  private static final byte[] MAGIC = {'S', 'L', 1};
  private static final int ELEMENT_HEADER_BYTES = 4 + 8 + 8 + 4;

  private Envelope() {}

  /** One event of an envelope: its headers and its payload. */
  public record Element(EventHeaders.Stamp stamp, byte[] payload) {}

  /**
   * @return the envelope's compression, or null when the message is a single plain event
   * @throws IllegalArgumentException when the header is there but names no compression (or has no value)
   */
  public static Compression compressionOf(Headers headers) {
    Header h = headers == null ? null : headers.lastHeader(HEADER);
    if (h == null) return null;
    if (h.value() == null) throw new IllegalArgumentException("message header '" + HEADER + "' has no value");
    return Compression.fromHeaderValue(new String(h.value(), StandardCharsets.US_ASCII));
  }

  /** The number of events the message header claims (0 when absent, malformed or negative). */
  public static int declaredCount(Headers headers) {
    Header h = headers == null ? null : headers.lastHeader(COUNT_HEADER);
    return h == null || h.value() == null || h.value().length != 4 ? 0 : Math.max(0, ByteBuffer.wrap(h.value()).getInt());
  }

  /** Collects events into one message; reusable after {@link #finish}. */
  public static final class Builder {
    private final Compression compression;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 << 10);
    private final DataOutputStream out = new DataOutputStream(bytes);
    private EventHeaders.Stamp first;
    private int count;

    public Builder(Compression compression) {
      this.compression = compression;
      reset();
    }

    public void add(EventHeaders.Stamp stamp, byte[] payload) {
      if (first == null) first = stamp;
      try {
        out.writeInt(stamp.producerId());
        out.writeLong(stamp.sequence());
        out.writeLong(stamp.sendTimeMicros());
        out.writeInt(payload.length);
        out.write(payload);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
      }
      count++;
    }

    public int size() {
      return count;
    }

    /** Uncompressed body size so far, for reporting compression ratios. */
    public int bodyBytes() {
      return bytes.size();
    }

    /** The compressed message value; {@link #writeHeaders} must go with it. Resets the builder. */
    public byte[] finish(Headers headers) {
      byte[] body = bytes.toByteArray();
      ByteBuffer.wrap(body, MAGIC.length, 4).putInt(count);
      EventHeaders.write(headers, first);
      headers.add(HEADER, compression.headerValue().getBytes(StandardCharsets.US_ASCII));
      headers.add(COUNT_HEADER, ByteBuffer.allocate(4).putInt(count).array());
      byte[] value = compression.compress(body);
      reset();
      return value;
    }

    private void reset() {
      bytes.reset();
      bytes.write(MAGIC, 0, MAGIC.length);
      bytes.write(new byte[4], 0, 4); // count, patched in finish
      first = null;
      count = 0;
    }
  }

  /**
   * Decompresses and hands every event to {@code each}, in order.
   *
   * @return the number of events delivered
   * @throws IllegalArgumentException when the body cannot be decompressed or its framing breaks;
   *     events before the break have been delivered (see {@link UnbatchException#delivered()})
   */
  public static int unbatch(byte[] value, Compression compression, Consumer<Element> each) {
    return unbatch(value, compression, Compression.MAX_BODY_BYTES, Integer.MAX_VALUE, each);
  }

  /**
   * As {@link #unbatch(byte[], Compression, Consumer)}, within limits.
   *
   * @param maxBodyBytes largest decompressed body ({@link Compression.TooLargeException} beyond)
   * @param maxEvents most events in one envelope; a body announcing more is refused before any is delivered
   */
  public static int unbatch(byte[] value, Compression compression, int maxBodyBytes, int maxEvents,
      Consumer<Element> each) {
    ByteBuffer b = ByteBuffer.wrap(compression.decompress(value, maxBodyBytes));
    int count = framing(0, () -> {
      for (byte m : MAGIC) if (b.get() != m) throw new IllegalArgumentException("not a streamlab envelope (bad magic)");
      int n = b.getInt();
      if (n < 0) throw new IllegalArgumentException("negative event count " + n);
      if (n > maxEvents) throw new IllegalArgumentException("envelope of " + n + " events exceeds the limit of " + maxEvents + " (--maxEnvelopeEvents)");
      return n;
    });
    for (int i = 0; i < count; i++) {
      int index = i;
      // the consumer's own failures are its business: only the framing is checked here
      each.accept(framing(i, () -> element(b, index, count)));
    }
    if (b.hasRemaining()) {
      throw new UnbatchException(b.remaining() + " bytes after the last of " + count + " events", count, null);
    }
    return count;
  }

  private static Element element(ByteBuffer b, int i, int count) {
    if (b.remaining() < ELEMENT_HEADER_BYTES) throw new IllegalArgumentException("envelope ends inside event " + i + " of " + count);
    EventHeaders.Stamp stamp = new EventHeaders.Stamp(b.getInt(), b.getLong(), b.getLong());
    if (stamp.producerId() < 0 || stamp.sequence() < 0 || stamp.sendTimeMicros() < 0) {
      throw new IllegalArgumentException("event " + i + " of " + count + " has a negative identity " + stamp);
    }
    int length = b.getInt();
    if (length < 0 || length > b.remaining()) {
      throw new IllegalArgumentException("event " + i + " of " + count + " claims " + length + " bytes, " + b.remaining() + " left");
    }
    byte[] payload = new byte[length];
    b.get(payload);
    return new Element(stamp, payload);
  }

  private static <T> T framing(int delivered, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | BufferUnderflowException e) {
      throw new UnbatchException(e.getMessage() == null ? "envelope truncated" : e.getMessage(), delivered, e);
    }
  }

  /** The envelope broke after {@link #delivered()} events had been handed on. */
  public static final class UnbatchException extends IllegalArgumentException {
    private final int delivered;

    UnbatchException(String message, int delivered, Throwable cause) {
      super(message, cause);
      this.delivered = delivered;
    }

    public int delivered() {
      return delivered;
    }
  }
}
