package io.streamlab.formats;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.Encoder;

/**
 * Avro's generic writer, except that a {@link Utf8Slice} is written from its bytes in place (Avro's
 * binary string is a length and the UTF-8 bytes, the same as its bytes type), where Avro's own
 * writer turns any CharSequence that is not a Utf8 into a String and encodes it again.
 */
public final class SliceAwareDatumWriter extends GenericDatumWriter<GenericRecord> {
  public SliceAwareDatumWriter(Schema schema) {
    super(schema, GenericData.get());
  }

  @Override
  protected void writeString(Object datum, Encoder out) throws IOException {
    if (datum instanceof Utf8Slice s) out.writeBytes(s.array(), s.offset(), s.byteLength());
    else super.writeString(datum, out);
  }
}
