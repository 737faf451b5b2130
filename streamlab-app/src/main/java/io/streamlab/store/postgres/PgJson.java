package io.streamlab.store.postgres;

import io.streamlab.schema.AvroSchemas;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import io.streamlab.formats.Utf8Slice;
import org.apache.avro.util.Utf8;

/**
 * A JSON column's value (json; jsonb in tables made before) written as UTF-8 JSON straight into
 * the COPY bytes, by a writer compiled once from the column's Avro schema. The JSON is what
 * {@code AvroJson.toJson} gives (records and maps as objects, enums as symbols, bytes as base64,
 * null as null), the same tree (PgJsonTest). Why not AvroJson here: it resolves every value's union with a
 * stream per value, turns each Utf8 into a String and back, and goes through a StringWriter; for
 * the default event's five nested records that was (JFR) the largest share of the write stage.
 */
final class PgJson {
  private PgJson() {}

  /** Writes one non-null value of the compiled schema. */
  interface Writer {
    void write(CopyBuffer out, Object value);
  }

  static Writer compile(Schema schema) {
    Writer nonNull = compileNonNull(AvroSchemas.nonNull(schema));
    return (out, v) -> {
      if (v == null) putNull(out);
      else nonNull.write(out, v);
    };
  }

  static final byte[] NULL = {'n', 'u', 'l', 'l'};
  static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  private static void putNull(CopyBuffer out) {
    out.put(NULL);
  }

  static final byte OTHER = 0, TEXT = 1, LONG = 2, INT = 3;

  /**
   * How a value of (non-null) type {@code t} is written: inline by a switch for the common kinds,
   * here and in PgBinary.Row, else through its compiled writer.
   */
  static byte kind(Schema t) {
    return switch (t.getType()) {
      case STRING, ENUM -> TEXT;
      case LONG -> LONG;
      case INT -> INT;
      default -> OTHER;
    };
  }

  private static Writer compileNonNull(Schema t) {
    return switch (t.getType()) {
      case STRING, ENUM -> PgJson::putString;
      case INT -> (out, v) -> out.putDecimal((Integer) v);
      case LONG -> (out, v) -> out.putDecimal((Long) v);
      case FLOAT -> (out, v) -> putAscii(out, Float.toString((Float) v));
      case DOUBLE -> (out, v) -> putAscii(out, Double.toString((Double) v));
      case BOOLEAN -> (out, v) -> out.put((Boolean) v ? TRUE : FALSE);
      case BYTES -> (out, v) -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        putBase64(out, a);
      };
      case FIXED -> (out, v) -> putBase64(out, ((GenericFixed) v).bytes());
      case ARRAY -> {
        Writer element = compile(t.getElementType());
        yield (out, v) -> {
          out.put((byte) '[');
          boolean first = true;
          for (Object item : (Collection<?>) v) {
            if (!first) out.put((byte) ',');
            first = false;
            element.write(out, item);
          }
          out.put((byte) ']');
        };
      }
      case MAP -> {
        Writer value = compile(t.getValueType());
        yield (out, v) -> {
          out.put((byte) '{');
          boolean first = true;
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            if (!first) out.put((byte) ',');
            first = false;
            putString(out, e.getKey());
            out.put((byte) ':');
            value.write(out, e.getValue());
          }
          out.put((byte) '}');
        };
      }
      case RECORD -> {
        List<Schema.Field> fields = t.getFields();
        byte[][] names = new byte[fields.size()][];
        byte[] kinds = new byte[fields.size()];
        Writer[] values = new Writer[fields.size()];
        for (int k = 0; k < names.length; k++) {
          names[k] = memberName(k, fields.get(k).name());
          Schema field = AvroSchemas.nonNull(fields.get(k).schema());
          kinds[k] = kind(field);
          values[k] = compileNonNull(field);
        }
        // The common kinds are written here, not through a Writer: the many Writer lambdas made
        // each field one or two calls the JIT could not inline (docs/perf-notes.md, step 5).
        yield (out, v) -> {
          IndexedRecord r = (IndexedRecord) v;
          out.put((byte) '{');
          for (int k = 0; k < names.length; k++) {
            out.put(names[k]);
            Object x = r.get(k);
            if (x == null) putNull(out);
            else {
              switch (kinds[k]) {
                case TEXT -> putString(out, x);
                case LONG -> out.putDecimal((Long) x);
                case INT -> out.putDecimal((Integer) x);
                default -> values[k].write(out, x);
              }
            }
          }
          out.put((byte) '}');
        };
      }
      default -> throw new IllegalArgumentException("no JSON form for Avro type " + t.getType());
    };
  }

  /** What goes before the {@code k}-th member's value in a JSON object: a comma after the first, the quoted name, a colon. */
  static byte[] memberName(int k, String name) {
    CopyBuffer b = new CopyBuffer(32);
    if (k > 0) b.put((byte) ',');
    putString(b, name);
    b.put((byte) ':');
    return java.util.Arrays.copyOf(b.array(), b.size());
  }

  private static void putAscii(CopyBuffer out, String s) {
    out.put(s.getBytes(StandardCharsets.US_ASCII));
  }

  private static void putBase64(CopyBuffer out, byte[] b) {
    out.put((byte) '"');
    out.put(Base64.getEncoder().encode(b));
    out.put((byte) '"');
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  /** Eight bytes of a string at a time (the order does not matter to {@link #needsEscape}). */
  private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * Whether one of the eight bytes of {@code w} must be escaped in a JSON string: a control
   * character (below 0x20), '"' or '\'. The classic "has a byte less than n" / "has a zero byte"
   * word tests, exact as to whether there is one (a borrow can only spread upwards from a byte
   * that matched); bytes of 0x80 and up (UTF-8 sequences) never match. Most strings have no such
   * byte, so they are checked a word at a time and copied in one go: the byte-at-a-time check
   * was the largest self time of the COPY encoding (docs/perf-notes.md).
   */
  static boolean needsEscape(long w) {
    long control = (w - 0x2020202020202020L) & ~w & HIGHS;
    long quote = w ^ 0x2222222222222222L;
    long backslash = w ^ 0x5C5C5C5C5C5C5C5CL;
    return (control | ((quote - ONES) & ~quote & HIGHS) | ((backslash - ONES) & ~backslash & HIGHS)) != 0;
  }

  /** A string (Utf8 in place; anything else by its text) quoted and escaped as JSON. */
  static void putString(CopyBuffer out, Object s) {
    byte[] b;
    int start = 0;
    int length;
    if (s instanceof Utf8Slice u) {
      b = u.array();
      start = u.offset();
      length = u.byteLength();
    } else if (s instanceof Utf8 u) {
      b = u.getBytes();
      length = u.getByteLength();
    } else {
      b = s.toString().getBytes(StandardCharsets.UTF_8);
      length = b.length;
    }
    putString(out, b, start, length);
  }

  /**
   * Writes the string quoted, as {@link #putString} does, where it is plain ASCII: no byte of 0x80
   * and up, none to escape (so no NUL either), as most strings are. Then it is valid UTF-8 too,
   * checked and copied in one pass where the UTF-8 check (TextCheck) and {@link #putString} each
   * took one (ThriftCopyRows).
   *
   * @return false, with nothing written, for any other string
   */
  static boolean putPlainAscii(CopyBuffer out, byte[] b, int start, int length) {
    int end = start + length;
    int i = start;
    for (; i + 8 <= end; i += 8) {
      long w = (long) WORD.get(b, i);
      if ((w & HIGHS) != 0 || needsEscape(w)) return false;
    }
    for (; i < end; i++) {
      byte c = b[i]; // signed: bytes of 0x80 and up are below 0x20 too
      if (c < 0x20 || c == '"' || c == '\\') return false;
    }
    out.put((byte) '"');
    out.put(b, start, length);
    out.put((byte) '"');
    return true;
  }

  /** The UTF-8 string in {@code b[start, start + length)} quoted and escaped as JSON. */
  static void putString(CopyBuffer out, byte[] b, int start, int length) {
    out.put((byte) '"');
    int end = start + length;
    int run = start; // where the bytes since the last escape begin, copied in one go
    for (int i = start; i < end; i++) {
      if (i + 8 <= end && !needsEscape((long) WORD.get(b, i))) {
        i += 7;
        continue;
      }
      int c = b[i] & 0xFF;
      if (c >= 0x20 && c != '"' && c != '\\') continue; // UTF-8 multi-byte sequences pass as they are
      out.put(b, run, i - run);
      run = i + 1;
      out.put((byte) '\\');
      switch (c) {
        case '"', '\\' -> out.put((byte) c);
        case '\n' -> out.put((byte) 'n');
        case '\r' -> out.put((byte) 'r');
        case '\t' -> out.put((byte) 't');
        case '\b' -> out.put((byte) 'b');
        case '\f' -> out.put((byte) 'f');
        default -> {
          out.put((byte) 'u');
          out.put((byte) '0');
          out.put((byte) '0');
          out.put(HEX[c >> 4]);
          out.put(HEX[c & 0xF]);
        }
      }
    }
    out.put(b, run, end - run);
    out.put((byte) '"');
  }
}
