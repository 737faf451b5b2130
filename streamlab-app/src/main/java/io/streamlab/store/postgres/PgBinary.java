package io.streamlab.store.postgres;

import io.streamlab.schema.AvroSchemas;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import io.streamlab.formats.Utf8Slice;
import org.apache.avro.util.Utf8;

/**
 * PostgreSQL's binary COPY format, one encoder per column compiled once from the Avro schema:
 * each value is written as its length and its binary send form (no text parsing on the server,
 * the fastest COPY here). json travels as its text ({@link PgJson}), jsonb (a table made before
 * json columns) as version byte 1 and the text.
 */
final class PgBinary {
  static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};

  private PgBinary() {}

  /** Writes one field: int32 length (-1 for null) and the value's bytes. */
  interface Encoder {
    void write(CopyBuffer out, Object value);
  }

  /**
   * The columns of a record, each as {@link #encoder} writes it, with the common kinds (text,
   * bigint, integer) written here by a switch: through one Encoder lambda per column (and a
   * null-check lambda around it), each value was two calls the JIT could not inline, since there
   * are many encoder classes (docs/perf-notes.md, step 5).
   */
  static final class Row {
    private final byte[] kinds; // PgJson.kind of each column
    private final Encoder[] others;

    /** @param jsonbColumns the columns of a JSON value that the table has as jsonb (the others are json) */
    Row(List<Schema.Field> fields, Set<String> jsonbColumns) {
      kinds = new byte[fields.size()];
      others = new Encoder[fields.size()];
      for (int k = 0; k < kinds.length; k++) {
        Schema t = AvroSchemas.nonNull(fields.get(k).schema());
        kinds[k] = PgJson.kind(t);
        others[k] = nonNullEncoder(t, jsonbColumns.contains(fields.get(k).name()));
      }
    }

    int columns() {
      return kinds.length;
    }

    /** The record's columns in order (not the row's column count, nor any column after them). */
    void write(CopyBuffer out, IndexedRecord r) {
      for (int k = 0; k < kinds.length; k++) {
        Object v = r.get(k);
        if (v == null) {
          out.putInt(-1);
          continue;
        }
        switch (kinds[k]) {
          case PgJson.TEXT -> putText(out, v);
          case PgJson.LONG -> { out.putInt(8); out.putLong((Long) v); }
          case PgJson.INT -> { out.putInt(4); out.putInt((Integer) v); }
          default -> others[k].write(out, v);
        }
      }
    }
  }

  static Encoder encoder(Schema column) {
    Encoder nonNull = nonNullEncoder(AvroSchemas.nonNull(column), false);
    return (out, v) -> {
      if (v == null) out.putInt(-1);
      else nonNull.write(out, v);
    };
  }

  /** @param jsonb a JSON value goes into a jsonb column (else json) */
  private static Encoder nonNullEncoder(Schema t, boolean jsonb) {
    if (t.getType() == Schema.Type.ARRAY && PgTypes.isScalar(t.getElementType())) return array(t.getElementType());
    if (PgTypes.isScalar(t)) return scalar(t);
    PgJson.Writer json = PgJson.compile(t);
    return (out, v) -> {
      int length = out.reserveInt();
      if (jsonb) out.put((byte) 1); // jsonb's binary form: version 1, then the JSON text; json's is the text
      json.write(out, v);
      out.patchLength(length);
    };
  }

  /** A text value: a string's UTF-8 bytes (a slice's or Utf8's in place), or an enum symbol's. */
  private static void putText(CopyBuffer out, Object v) {
    if (v instanceof Utf8Slice u) {
      out.putInt(u.byteLength());
      out.put(u.array(), u.offset(), u.byteLength());
    } else if (v instanceof Utf8 u) {
      out.putInt(u.getByteLength());
      out.put(u.getBytes(), 0, u.getByteLength());
    } else {
      byte[] b = v.toString().getBytes(StandardCharsets.UTF_8);
      out.putInt(b.length);
      out.put(b);
    }
  }

  private static Encoder scalar(Schema s) {
    Schema t = AvroSchemas.nonNull(s);
    return switch (t.getType()) {
      case STRING, ENUM -> PgBinary::putText;
      case INT -> (out, v) -> { out.putInt(4); out.putInt((Integer) v); };
      case LONG -> (out, v) -> { out.putInt(8); out.putLong((Long) v); };
      case FLOAT -> (out, v) -> { out.putInt(4); out.putInt(Float.floatToIntBits((Float) v)); };
      case DOUBLE -> (out, v) -> { out.putInt(8); out.putLong(Double.doubleToLongBits((Double) v)); };
      case BOOLEAN -> (out, v) -> { out.putInt(1); out.put((byte) ((Boolean) v ? 1 : 0)); };
      case BYTES -> (out, v) -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        out.putInt(b.remaining());
        if (b.hasArray()) out.put(b.array(), b.arrayOffset() + b.position(), b.remaining());
        else { byte[] a = new byte[b.remaining()]; b.get(a); out.put(a); }
      };
      case FIXED -> (out, v) -> {
        byte[] b = ((GenericFixed) v).bytes();
        out.putInt(b.length);
        out.put(b);
      };
      default -> throw new IllegalArgumentException("not a scalar: " + t);
    };
  }

  /** One-dimensional array: ndim, has-null flag, element oid, length, lower bound, elements. */
  private static Encoder array(Schema elementSchema) {
    Encoder element = encoder(elementSchema);
    int oid = PgTypes.scalarOid(elementSchema);
    return (out, v) -> {
      Collection<?> items = (Collection<?>) v;
      int length = out.reserveInt();
      out.putInt(1);
      out.putInt(items.contains(null) ? 1 : 0);
      out.putInt(oid);
      out.putInt(items.size());
      out.putInt(1);
      for (Object item : items) element.write(out, item);
      out.patchLength(length);
    };
  }
}
