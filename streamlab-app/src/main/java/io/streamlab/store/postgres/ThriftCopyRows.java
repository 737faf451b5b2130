package io.streamlab.store.postgres;

import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TextCheck;
import io.streamlab.schema.AvroSchemas;
import io.streamlab.schema.SystemColumns;
import io.streamlab.schema.ThriftIdl;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.thrift.protocol.TType;

/**
 * A Thrift event's bytes straight to the binary COPY columns of its table row, in one pass
 * (formatToStore STORE_ROW): the bytes {@link PgBinary.Row} would write for the table record the
 * decoder makes of them, with no record in between. Decoding into a record and encoding it again
 * walked every value twice, on two threads, and left the record's objects to the collector
 * (docs/perf-notes.md, "2026-11-28 night").
 *
 * <p>It takes only what Thrift's own writer makes of this schema: the fields in schema order, an
 * absent field only where it may be null, no unknown field, nested structs as JSON objects of
 * scalars. Anything else, valid or not (fields in another order, an unknown field, a bad length,
 * invalid UTF-8), gives null, and the caller decodes the event as before: the decoder reads what
 * Thrift allows, and says what is wrong with what it does not, so a message is written or
 * dead-lettered exactly as it would be through a record. A schema with a column of another kind
 * (lists, maps, enums, binary of fixed size, deeper nesting) has no one-pass form ({@link #forEvent}).
 * The table's JSON columns must be json, as streamlab makes them (the writer checks: PgCopyWriter).
 */
public final class ThriftCopyRows {
  // what a column is written as
  private static final byte TEXT = 0, BINARY = 1, LONG = 2, INT = 3, BOOLEAN = 4, FLOAT8 = 5, FLOAT4 = 6, JSON = 7;

  /** One field of a struct: its Thrift id and type, and how its value is written. */
  private record Field(short id, byte ttype, boolean nullable, byte kind, byte[] jsonName, Field[] nested) {}

  private final Schema tableSchema;
  private final PayloadCodec codec;
  private final Field[] fields;
  private final CopyBuffer scratch = new CopyBuffer(8 << 10);
  private byte[] in;
  private int pos;
  private int end;

  private ThriftCopyRows(Schema tableSchema, PayloadCodec codec, Field[] fields) {
    this.tableSchema = tableSchema;
    this.codec = codec;
    this.fields = fields;
  }

  /**
   * @param codec the event's Thrift codec: it decodes a {@link CopyRow}'s event when its values
   *     are asked for (a dead letter, a shuffle's coder)
   * @return null where a column of the event has no one-pass form
   */
  public static ThriftCopyRows forEvent(Schema eventSchema, PayloadCodec codec) {
    Field[] fields = compile(eventSchema, false);
    return fields == null ? null : new ThriftCopyRows(SystemColumns.tableRecordSchema(eventSchema), codec, fields);
  }

  /** The struct's fields, or null when one has no one-pass form ({@code inJson}: as a nested struct's JSON members). */
  private static Field[] compile(Schema struct, boolean inJson) {
    List<Schema.Field> schemaFields = struct.getFields();
    Field[] out = new Field[schemaFields.size()];
    for (int i = 0; i < out.length; i++) {
      Schema.Field f = schemaFields.get(i);
      Schema type = AvroSchemas.nonNull(f.schema());
      boolean nullable = f.schema().isUnion();
      if (nullable && f.schema().getTypes().size() != 2) return null;
      byte[] jsonName = inJson ? PgJson.memberName(i, f.name()) : null;
      Field[] nested = null;
      byte ttype;
      byte kind;
      switch (type.getType()) {
        case STRING -> { ttype = TType.STRING; kind = TEXT; }
        case LONG -> { ttype = TType.I64; kind = LONG; }
        case BOOLEAN -> { ttype = TType.BOOL; kind = BOOLEAN; }
        case INT -> {
          if (type.getProp(ThriftIdl.INT_TYPE) != null) return null; // i16, byte
          ttype = TType.I32;
          kind = INT;
        }
        case DOUBLE -> { ttype = TType.DOUBLE; kind = FLOAT8; }
        case FLOAT -> { ttype = TType.DOUBLE; kind = FLOAT4; }
        case BYTES -> { ttype = TType.STRING; kind = BINARY; }
        case RECORD -> {
          if (inJson) return null;
          nested = compile(type, true);
          if (nested == null) return null;
          ttype = TType.STRUCT;
          kind = JSON;
        }
        default -> { return null; }
      }
      if (inJson && kind != TEXT && kind != LONG && kind != INT && kind != BOOLEAN) return null; // numbers as text: PgJson's
      out[i] = new Field(ThriftIdl.fieldId(f), ttype, nullable, kind, jsonName, nested);
    }
    return out;
  }

  /**
   * The event's table row, its columns in COPY's binary form, or null when its bytes are not
   * what Thrift's writer makes of the schema (the caller then decodes them).
   */
  public CopyRow row(byte[] payload, int producerId, long sequence, long sendTimeMicros) {
    scratch.clear();
    in = payload;
    pos = 0;
    end = payload.length;
    try {
      if (!struct(fields, false)) return null;
    } catch (RuntimeException e) { // TextCheck's bad text, or anything else: the decoder reads it, or says what is wrong
      return null;
    } finally {
      in = null;
    }
    if (pos != end) return null; // bytes after the struct: the decoder ignores them, but they are not Thrift's
    scratch.putInt(4);
    scratch.putInt(producerId);
    scratch.putInt(8);
    scratch.putLong(sequence);
    scratch.putInt(8);
    scratch.putLong(sendTimeMicros);
    return new CopyRow(this, payload, Arrays.copyOf(scratch.array(), scratch.size()), producerId, sequence, sendTimeMicros);
  }

  Schema tableSchema() {
    return tableSchema;
  }

  PayloadCodec codec() {
    return codec;
  }

  /** A struct's fields in order up to its STOP; false where they are not in Thrift's writer's layout. */
  private boolean struct(Field[] expected, boolean json) {
    int next = 0;
    while (true) {
      if (end - pos < 1) return false;
      byte type = in[pos++];
      if (type == TType.STOP) break;
      if (end - pos < 2) return false;
      short id = (short) (((in[pos] & 0xFF) << 8) | (in[pos + 1] & 0xFF));
      pos += 2;
      while (next < expected.length && expected[next].id != id) {
        if (!absent(expected[next++], json)) return false;
      }
      if (next == expected.length || expected[next].ttype != type) return false; // unknown, repeated or out of order
      if (!value(expected[next++], json)) return false;
    }
    while (next < expected.length) {
      if (!absent(expected[next++], json)) return false;
    }
    return true;
  }

  /** A field that is not in the bytes: null where it may be. */
  private boolean absent(Field f, boolean json) {
    if (!f.nullable) return false; // the decoder's "required field missing"
    if (json) {
      scratch.put(f.jsonName);
      scratch.put(PgJson.NULL);
    } else {
      scratch.putInt(-1);
    }
    return true;
  }

  private boolean value(Field f, boolean json) {
    if (json) {
      scratch.put(f.jsonName);
      return jsonValue(f);
    }
    switch (f.kind) {
      case TEXT, BINARY -> {
        int n = length();
        if (n < 0) return false;
        if (f.kind == TEXT) TextCheck.utf8(in, pos, n);
        scratch.putInt(n);
        scratch.put(in, pos, n);
        pos += n;
      }
      case LONG -> {
        if (end - pos < 8) return false;
        scratch.putInt(8);
        scratch.putLong(i64());
      }
      case INT -> {
        if (end - pos < 4) return false;
        scratch.putInt(4);
        scratch.putInt(i32());
      }
      case BOOLEAN -> {
        if (end - pos < 1) return false;
        scratch.putInt(1);
        scratch.put((byte) (in[pos++] == 1 ? 1 : 0)); // the decoder's reading: 1 is true, anything else false
      }
      case FLOAT8, FLOAT4 -> {
        if (end - pos < 8) return false;
        // through the double and back, as the record would go: NaNs become the canonical one
        double d = Double.longBitsToDouble(i64());
        if (f.kind == FLOAT8) {
          scratch.putInt(8);
          scratch.putLong(Double.doubleToLongBits(d));
        } else {
          scratch.putInt(4);
          scratch.putInt(Float.floatToIntBits((float) d));
        }
      }
      case JSON -> {
        int length = scratch.reserveInt();
        scratch.put((byte) '{');
        if (!struct(f.nested, true)) return false;
        scratch.put((byte) '}');
        scratch.patchLength(length);
      }
      default -> throw new IllegalStateException("kind " + f.kind);
    }
    return true;
  }

  /** A nested struct's member, as PgJson writes it. */
  private boolean jsonValue(Field f) {
    switch (f.kind) {
      case TEXT -> {
        int n = length();
        if (n < 0) return false;
        if (!PgJson.putPlainAscii(scratch, in, pos, n)) { // else: checked and escaped, a pass each
          TextCheck.utf8(in, pos, n);
          PgJson.putString(scratch, in, pos, n);
        }
        pos += n;
      }
      case LONG -> {
        if (end - pos < 8) return false;
        scratch.putDecimal(i64());
      }
      case INT -> {
        if (end - pos < 4) return false;
        scratch.putDecimal(i32());
      }
      case BOOLEAN -> {
        if (end - pos < 1) return false;
        scratch.put(in[pos++] == 1 ? PgJson.TRUE : PgJson.FALSE);
      }
      default -> throw new IllegalStateException("kind " + f.kind);
    }
    return true;
  }

  /** A string's length, or -1 where it is negative or runs past the bytes. */
  private int length() {
    if (end - pos < 4) return -1;
    int n = i32();
    return n < 0 || n > end - pos ? -1 : n;
  }

  private int i32() {
    byte[] b = in;
    int p = pos;
    pos = p + 4;
    return ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
  }

  private long i64() {
    long high = i32();
    return (high << 32) | (i32() & 0xFFFFFFFFL);
  }
}
