package io.streamlab.formats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An event's identity and intended send time as the Kafka record key of a plain message: the
 * magic {@code 'S','L','I',1}, then the big-endian producer id (4 bytes), sequence (8) and send
 * time in epoch microseconds (8), 24 bytes in all. It says what {@link EventHeaders} say, for
 * less: the consumer parses each header into objects (a header object, two buffer slices, the
 * list holding them) and the reader decodes each header's name to look it up, where a key is one
 * slice copied into one array. With three headers per message that was about a tenth of a
 * drain's CPU (docs/perf-notes.md, "2026-11-28 afternoon").
 *
 * <p>A key without the magic is a user's own key and says nothing about identity; a key with it
 * that is not exactly this layout, or holds a negative number, is malformed (the message is then
 * a dead letter, as one with malformed headers is).
 */
public final class EventKey {
  public static final int BYTES = 24;
  private static final byte[] MAGIC = {'S', 'L', 'I', 1};
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private EventKey() {}

  public static byte[] of(EventHeaders.Stamp s) {
    byte[] key = new byte[BYTES];
    System.arraycopy(MAGIC, 0, key, 0, MAGIC.length);
    INT.set(key, 4, s.producerId());
    LONG.set(key, 8, s.sequence());
    LONG.set(key, 16, s.sendTimeMicros());
    return key;
  }

  /** True when the key starts with streamlab's magic, i.e. claims to be an event key (well formed or not). */
  public static boolean marks(byte[] key) {
    if (key == null || key.length < MAGIC.length) return false;
    for (int i = 0; i < MAGIC.length; i++) if (key[i] != MAGIC[i]) return false;
    return true;
  }

  /** @throws IllegalArgumentException when the key is not {@value #BYTES} bytes of this layout or holds a negative number */
  public static EventHeaders.Stamp read(byte[] key) {
    if (!marks(key) || key.length != BYTES) {
      throw new IllegalArgumentException("record key of " + (key == null ? 0 : key.length) + " bytes is not a streamlab event key ("
          + BYTES + " bytes starting with 'S','L','I',1)");
    }
    int producerId = (int) INT.get(key, 4);
    long sequence = (long) LONG.get(key, 8);
    long sendTimeMicros = (long) LONG.get(key, 16);
    if (producerId < 0 || sequence < 0 || sendTimeMicros < 0) {
      throw new IllegalArgumentException("record key holds a negative producer id, sequence or send time ("
          + producerId + ", " + sequence + ", " + sendTimeMicros + ")");
    }
    return new EventHeaders.Stamp(producerId, sequence, sendTimeMicros);
  }

  /** The key as text for the dead-letter table: the identity it holds, else its length. */
  public static String describe(byte[] key) {
    if (key == null) return "";
    try {
      EventHeaders.Stamp s = read(key);
      return "key=" + s.eventId() + "@" + s.sendTimeMicros();
    } catch (IllegalArgumentException notAnEventKey) {
      return "key=" + key.length + "B";
    }
  }
}
