package io.streamlab.formats;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro binary encoding of one event, no container header: both ends know the schema (as with a
 * schema registry, minus the registry). Encoder, decoder and buffers are reused per thread.
 */
public final class AvroBinaryCodec implements PayloadCodec {
  private final String schemaJson;
  private transient Schema schema;
  private transient GenericDatumWriter<GenericRecord> writer;
  private transient GenericDatumReader<GenericRecord> reader;
  private transient ByteArrayOutputStream out;
  private transient BinaryEncoder encoder;
  private transient BinaryDecoder decoder;

  public AvroBinaryCodec(Schema schema) {
    this.schemaJson = schema.toString();
    init(schema);
  }

  private void init(Schema s) {
    schema = s;
    writer = new GenericDatumWriter<>(s);
    reader = new GenericDatumReader<>(s);
    out = new ByteArrayOutputStream(4096);
  }

  private void ensureInit() {
    if (schema == null) init(new Schema.Parser().parse(schemaJson));
  }

  @Override
  public byte[] encode(GenericRecord event) {
    ensureInit();
    out.reset();
    encoder = EncoderFactory.get().binaryEncoder(out, encoder);
    try {
      writer.write(event, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot encode event as Avro " + schema.getName() + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  @Override
  public GenericRecord decode(byte[] payload) {
    ensureInit();
    decoder = DecoderFactory.get().binaryDecoder(payload, decoder);
    try {
      GenericRecord r = reader.read(null, decoder);
      if (!decoder.isEnd()) throw new IllegalArgumentException("trailing bytes after the event");
      return r;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a valid Avro " + schema.getName() + ": " + e, e);
    }
  }
}
