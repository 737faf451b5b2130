package io.streamlab.formats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What every decoder checks in a string before it becomes a row: well-formed UTF-8 (no stray or
 * truncated sequences, no overlong forms, no surrogates, nothing above U+10FFFF) and no NUL.
 * A table store refuses the first (DuckDB fails the whole append), PostgreSQL refuses NUL in
 * text; caught here, the event is one dead letter of stage decode instead of a failing append.
 * NUL is refused for every store alike, so an event's fate does not depend on the store.
 */
public final class TextCheck {
  private TextCheck() {}

  private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long ADD_7F = 0x7F7F7F7F7F7F7F7FL;

  /** @throws IllegalArgumentException naming the offset of the first bad byte */
  public static void utf8(byte[] b, int from, int length) {
    int i = from, end = from + length;
    while (i < end) {
      // Most text is ASCII: 8 bytes at once when none has its high bit set and none is zero (for
      // bytes below 0x80, adding 0x7F sets the high bit of every byte but a zero one, carry-free).
      // The events' strings are most of their bytes, so a byte at a time was a visible share of decode.
      if (end - i >= 8) {
        long w = (long) WORD.get(b, i);
        if (((w | ~(w + ADD_7F)) & HIGH_BITS) == 0) {
          i += 8;
          continue;
        }
      }
      int c = b[i] & 0xFF;
      if (c >= 0x01 && c < 0x80) { // ASCII fast path
        i++;
        continue;
      }
      if (c == 0) throw bad("a NUL character", i - from);
      int n;
      int min;
      if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
        min = 0x80;
      } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        min = 0x800;
      } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        min = 0x10000;
      } else {
        throw bad("invalid UTF-8 (byte 0x" + Integer.toHexString(c) + ")", i - from);
      }
      if (i + n >= end) throw bad("truncated UTF-8", i - from);
      int cp = c & (0x3F >> n);
      for (int k = 1; k <= n; k++) {
        int cc = b[i + k] & 0xFF;
        if ((cc & 0xC0) != 0x80) throw bad("invalid UTF-8 (byte 0x" + Integer.toHexString(cc) + ")", i + k - from);
        cp = (cp << 6) | (cc & 0x3F);
      }
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        throw bad("invalid UTF-8 (code point U+" + Integer.toHexString(cp).toUpperCase() + ")", i - from);
      }
      i += n + 1;
    }
  }

  /** The same for a decoded Java string: no NUL, no lone surrogate. */
  public static void text(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0) throw bad("a NUL character", i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        throw bad("a lone surrogate (not valid UTF-8)", i);
      }
    }
  }

  private static IllegalArgumentException bad(String what, int at) {
    return new IllegalArgumentException("string with " + what + " at offset " + at);
  }
}
