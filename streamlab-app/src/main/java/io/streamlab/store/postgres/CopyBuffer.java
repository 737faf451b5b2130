package io.streamlab.store.postgres;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The bytes of a binary COPY being built: a growable array with big-endian puts and no locking.
 * It replaced a DataOutputStream over a BufferedOutputStream, whose every writeInt was four
 * synchronized single-byte writes (about 100 lock round trips per 25-column row). A field's
 * length can be written after its value ({@link #reserveInt} / {@link #patchLength}), so nested
 * values (JSON, arrays) are written in place instead of into a buffer of their own first.
 */
final class CopyBuffer {
  /** Big-endian int and long stores into the array: one bounds check and one store each, not four or eight. */
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private byte[] bytes;
  private int size;

  CopyBuffer(int capacity) {
    bytes = new byte[capacity];
  }

  byte[] array() {
    return bytes;
  }

  int size() {
    return size;
  }

  void clear() {
    size = 0;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
  }

  void put(byte b) {
    ensure(1);
    bytes[size++] = b;
  }

  void put(byte[] b) {
    put(b, 0, b.length);
  }

  void put(byte[] b, int from, int length) {
    ensure(length);
    System.arraycopy(b, from, bytes, size, length);
    size += length;
  }

  void putShort(int v) {
    ensure(2);
    bytes[size] = (byte) (v >>> 8);
    bytes[size + 1] = (byte) v;
    size += 2;
  }

  void putInt(int v) {
    ensure(4);
    setInt(size, v);
    size += 4;
  }

  void putLong(long v) {
    ensure(8);
    LONG.set(bytes, size, v);
    size += 8;
  }

  /** Room for a length written later with {@link #patchLength}; returns its position. */
  int reserveInt() {
    ensure(4);
    size += 4;
    return size - 4;
  }

  /** The bytes written since {@code position} + 4, as the int at {@code position}. */
  void patchLength(int position) {
    setInt(position, size - position - 4);
  }

  private void setInt(int at, int v) {
    INT.set(bytes, at, v);
  }

  /** "00" to "99": two digits per division by 100. */
  private static final byte[] DIGIT_PAIRS = new byte[200];

  static {
    for (int i = 0; i < 100; i++) {
      DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
      DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  /**
   * A long as decimal ASCII digits, without a String: the digit count by comparison, then two
   * digits per division from the last (one division per two digits, where one per digit, twice
   * over, was a seventh of the append thread's samples in a JSON-heavy drain).
   */
  void putDecimal(long v) {
    if (v == Long.MIN_VALUE) {
      put(Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return;
    }
    ensure(20);
    if (v < 0) {
      bytes[size++] = '-';
      v = -v;
    }
    int end = size + digits(v);
    int i = end;
    while (v >= 100) {
      long q = v / 100;
      int pair = (int) (v - q * 100) << 1;
      v = q;
      bytes[--i] = DIGIT_PAIRS[pair + 1];
      bytes[--i] = DIGIT_PAIRS[pair];
    }
    if (v >= 10) {
      int pair = (int) v << 1;
      bytes[--i] = DIGIT_PAIRS[pair + 1];
      bytes[--i] = DIGIT_PAIRS[pair];
    } else {
      bytes[--i] = (byte) ('0' + v);
    }
    size = end;
  }

  /** Decimal digits of {@code v >= 0}. */
  private static int digits(long v) {
    long bound = 10;
    for (int d = 1; d < 19; d++) {
      if (v < bound) return d;
      bound *= 10;
    }
    return 19;
  }
}
