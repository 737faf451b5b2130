package io.streamlab.store.postgres;

import io.streamlab.schema.AvroJson;
import io.streamlab.schema.AvroSchemas;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.util.Utf8;

/**
 * PostgreSQL's binary COPY format, one encoder per column compiled once from the Avro schema:
 * each value is written as its length and its binary send form (no text parsing on the server,
 * the fastest COPY here). jsonb travels as version byte 1 + the JSON text.
 */
final class PgBinary {
  static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};

  private PgBinary() {}

  /** Writes one field: int32 length (-1 for null) and the value's bytes. */
  interface Encoder {
    void write(DataOutputStream out, Object value) throws IOException;
  }

  static Encoder encoder(Schema column) {
    Schema t = AvroSchemas.nonNull(column);
    Encoder e;
    if (t.getType() == Schema.Type.ARRAY && PgTypes.isScalar(t.getElementType())) e = array(t.getElementType());
    else if (PgTypes.isScalar(t)) e = scalar(t);
    else e = (out, v) -> {
      byte[] json = AvroJson.toJson(v, t).getBytes(StandardCharsets.UTF_8);
      out.writeInt(json.length + 1);
      out.writeByte(1);
      out.write(json);
    };
    Encoder nonNull = e;
    return (out, v) -> {
      if (v == null) out.writeInt(-1);
      else nonNull.write(out, v);
    };
  }

  private static Encoder scalar(Schema s) {
    Schema t = AvroSchemas.nonNull(s);
    return switch (t.getType()) {
      case STRING, ENUM -> (out, v) -> {
        if (v instanceof Utf8 u) {
          out.writeInt(u.getByteLength());
          out.write(u.getBytes(), 0, u.getByteLength());
        } else {
          byte[] b = v.toString().getBytes(StandardCharsets.UTF_8);
          out.writeInt(b.length);
          out.write(b);
        }
      };
      case INT -> (out, v) -> { out.writeInt(4); out.writeInt((Integer) v); };
      case LONG -> (out, v) -> { out.writeInt(8); out.writeLong((Long) v); };
      case FLOAT -> (out, v) -> { out.writeInt(4); out.writeFloat((Float) v); };
      case DOUBLE -> (out, v) -> { out.writeInt(8); out.writeDouble((Double) v); };
      case BOOLEAN -> (out, v) -> { out.writeInt(1); out.writeByte((Boolean) v ? 1 : 0); };
      case BYTES -> (out, v) -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        out.writeInt(b.remaining());
        if (b.hasArray()) out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        else { byte[] a = new byte[b.remaining()]; b.get(a); out.write(a); }
      };
      case FIXED -> (out, v) -> {
        byte[] b = ((GenericFixed) v).bytes();
        out.writeInt(b.length);
        out.write(b);
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
      ByteArrayOutputStream buf = new ByteArrayOutputStream(16 + items.size() * 16);
      DataOutputStream a = new DataOutputStream(buf);
      a.writeInt(1);
      a.writeInt(items.contains(null) ? 1 : 0);
      a.writeInt(oid);
      a.writeInt(items.size());
      a.writeInt(1);
      for (Object item : items) element.write(a, item);
      a.flush();
      out.writeInt(buf.size());
      buf.writeTo(out);
    };
  }
}
