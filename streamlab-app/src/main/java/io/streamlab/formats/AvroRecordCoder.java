package io.streamlab.formats;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.avro.io.AvroDatumFactory;

/**
 * Beam's {@link AvroCoder} for generic records whose string fields may be {@link Utf8Slice}s: a
 * slice is written from its bytes in place (Avro's binary string is a length and the UTF-8 bytes,
 * the same as its bytes type), where Avro's own writer would turn any CharSequence that is not a
 * Utf8 into a String and encode it again. Decoding is Avro's (strings come back as Utf8).
 */
public final class AvroRecordCoder {
  private AvroRecordCoder() {}

  public static AvroCoder<GenericRecord> of(Schema schema) {
    return AvroCoder.of(SliceAwareFactory.INSTANCE, schema);
  }

  private static final class SliceAwareFactory extends AvroDatumFactory.GenericDatumFactory {
    static final SliceAwareFactory INSTANCE = new SliceAwareFactory();

    @Override
    public DatumWriter<GenericRecord> apply(Schema writer) {
      return new GenericDatumWriter<>(writer, GenericData.get()) {
        @Override
        protected void writeString(Object datum, Encoder out) throws IOException {
          if (datum instanceof Utf8Slice s) out.writeBytes(s.array(), s.offset(), s.byteLength());
          else super.writeString(datum, out);
        }
      };
    }

    /** One factory: equal coders for equal schemas, as with Avro's own generic factory. */
    @Override
    public boolean equals(Object o) {
      return o instanceof SliceAwareFactory;
    }

    @Override
    public int hashCode() {
      return SliceAwareFactory.class.hashCode();
    }

    private Object readResolve() {
      return INSTANCE;
    }
  }
}
