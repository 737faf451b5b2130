package io.streamlab.formats;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro binary encoding of one event, no container header: both ends know the schema (as with a
 * schema registry, minus the registry). Encoder, decoder and buffers are reused per thread.
 */
public final class AvroBinaryCodec extends SchemaDrivenCodec<AvroBinaryCodec.Compiled> {
  record Compiled(Schema schema, SliceAwareDatumWriter writer, GenericDatumReader<GenericRecord> reader) {}

  private transient ByteArrayOutputStream out;
  private transient BinaryEncoder encoder;
  private transient BinaryDecoder decoder;

  public AvroBinaryCodec(Schema schema) {
    super(schema);
  }

  @Override
  Compiled compile(Schema s) {
    return new Compiled(s, new SliceAwareDatumWriter(s), new CheckedReader(s));
  }

  /** Avro's reader with every string (map keys too) checked by {@link TextCheck}: Avro itself takes any bytes. */
  private static final class CheckedReader extends GenericDatumReader<GenericRecord> {
    CheckedReader(Schema s) {
      super(s);
    }

    @Override
    protected Object readString(Object old, Schema expected, org.apache.avro.io.Decoder in) throws IOException {
      return checked(super.readString(old, expected, in));
    }

    @Override
    protected Object readString(Object old, org.apache.avro.io.Decoder in) throws IOException {
      return checked(super.readString(old, in));
    }

    @Override
    protected Object readMapKey(Object old, Schema expected, org.apache.avro.io.Decoder in) throws IOException {
      return checked(super.readMapKey(old, expected, in));
    }

    private static Object checked(Object s) {
      if (s instanceof org.apache.avro.util.Utf8 u) TextCheck.utf8(u.getBytes(), 0, u.getByteLength());
      else if (s != null) TextCheck.text(s.toString());
      return s;
    }
  }

  @Override
  public byte[] encode(GenericRecord event) {
    Compiled c = compiled();
    if (out == null) out = new ByteArrayOutputStream(4096);
    out.reset();
    encoder = EncoderFactory.get().binaryEncoder(out, encoder);
    try {
      c.writer().write(event, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot encode event as Avro " + c.schema().getName() + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  @Override
  public GenericRecord decode(byte[] payload) {
    Compiled c = compiled();
    decoder = DecoderFactory.get().binaryDecoder(payload, decoder);
    try {
      GenericRecord r = c.reader().read(null, decoder);
      if (!decoder.isEnd()) throw new IllegalArgumentException("trailing bytes after the event");
      return r;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a valid Avro " + c.schema().getName() + ": " + e, e);
    }
  }
}
