package io.streamlab.formats;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.avro.io.AvroDatumFactory;

/**
 * Beam's {@link AvroCoder} for generic records whose string fields may be {@link Utf8Slice}s: a
 * slice is written from its bytes in place ({@link SliceAwareDatumWriter}). Decoding is Avro's
 * (strings come back as Utf8), except that a string is read without Avro's per-string lookup of
 * the class to read it as.
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
      return new SliceAwareDatumWriter(writer);
    }

    /**
     * Avro's generic reader (1.11) looks up the class to read each string as in a cache keyed by
     * a new key object and a new lambda per string: the largest allocation of a shuffled
     * STORAGE_WRITE_API drain after the strings themselves (docs/perf-notes.md, 2026-11-27).
     * Without the schema property that names another class, that class is always Utf8 (Avro's
     * CharSequence), which is read here directly; a schema with the property is left to Avro.
     */
    @Override
    public DatumReader<GenericRecord> apply(Schema writer, Schema reader) {
      return new GenericDatumReader<>(writer, reader) {
        @Override
        protected Object readString(Object old, Schema expected, Decoder in) throws IOException {
          if (expected.getProp(GenericData.STRING_PROP) != null) return super.readString(old, expected, in);
          return in.readString(old instanceof Utf8 u ? u : null);
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
