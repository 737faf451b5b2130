package io.streamlab.formats;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.util.Utf8;

/**
 * A string field's UTF-8 bytes where they already are: in the message the event was decoded from,
 * or in the generator's cache of a field's values. The Thrift codec hands these out instead of
 * copying every string into an Avro {@link Utf8} of its own (that copy, and the allocation behind
 * it, was the largest single cost of the reading thread); the generator, so that a value is read
 * from the cache lines its bytes are on and not from a cached object's as well. The codecs and the
 * table writers (PostgreSQL COPY, Arrow) copy the bytes once, into their own buffers. Anything
 * else sees an ordinary {@link CharSequence}: Beam Row and JSON conversion go through
 * {@link #toString()}, which decodes once and keeps the String.
 *
 * <p>Equal to another slice or a {@link Utf8} with the same bytes, with {@link Utf8}'s hash code,
 * so a slice and a Utf8 of the same text land in the same hash bucket. As with {@link Utf8} and
 * {@link String}, {@code Utf8.equals(slice)} is false: compare text with {@code toString()}.
 * The bytes must not change while the slice lives (Kafka hands each record its own; the
 * generator's caches never change).
 */
public final class Utf8Slice implements CharSequence, Comparable<CharSequence> {
  private final byte[] bytes;
  private final int offset;
  private final int length;
  private String string;
  private int hash;

  public Utf8Slice(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }

  /** The array the bytes are in; they start at {@link #offset()}. Never modify it. */
  public byte[] array() {
    return bytes;
  }

  public int offset() {
    return offset;
  }

  public int byteLength() {
    return length;
  }

  /** The same text as an Avro {@link Utf8} with its own copy of the bytes. */
  public Utf8 toUtf8() {
    return new Utf8(Arrays.copyOfRange(bytes, offset, offset + length));
  }

  @Override
  public String toString() {
    String s = string;
    if (s == null) string = s = new String(bytes, offset, length, StandardCharsets.UTF_8);
    return s;
  }

  @Override
  public int length() {
    return toString().length();
  }

  @Override
  public char charAt(int index) {
    return toString().charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return toString().subSequence(start, end);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (o instanceof Utf8Slice s) {
      return Arrays.equals(bytes, offset, offset + length, s.bytes, s.offset, s.offset + s.length);
    }
    if (o instanceof Utf8 u) return Arrays.equals(bytes, offset, offset + length, u.getBytes(), 0, u.getByteLength());
    return false;
  }

  /** {@link Utf8#hashCode()}'s function of the bytes. */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      for (int i = offset; i < offset + length; i++) h = h * 31 + bytes[i];
      hash = h;
    }
    return h;
  }

  /** Byte order, as {@link Utf8#compareTo} and Avro's sort order for strings. */
  @Override
  public int compareTo(CharSequence o) {
    if (o instanceof Utf8Slice s) {
      return Arrays.compareUnsigned(bytes, offset, offset + length, s.bytes, s.offset, s.offset + s.length);
    }
    byte[] b = o instanceof Utf8 u ? u.getBytes() : o.toString().getBytes(StandardCharsets.UTF_8);
    int n = o instanceof Utf8 u ? u.getByteLength() : b.length;
    return Arrays.compareUnsigned(bytes, offset, offset + length, b, 0, n);
  }
}
