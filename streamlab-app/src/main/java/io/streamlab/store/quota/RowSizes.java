package io.streamlab.store.quota;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Bytes of a row as a quota counts them: its Avro binary size (the typed binary rows the
 * Storage Write API sends; streaming inserts' JSON would be ~2x, which only rescales the limit).
 */
public final class RowSizes {
  private static final ThreadLocal<Sizer> SIZER = ThreadLocal.withInitial(Sizer::new);

  private RowSizes() {}

  public static long sizeOf(GenericRecord row) {
    return SIZER.get().size(row);
  }

  public static long sizeOf(List<GenericRecord> rows) {
    Sizer s = SIZER.get();
    long total = 0;
    for (GenericRecord r : rows) total += s.size(r);
    return total;
  }

  private static final class Sizer extends OutputStream {
    private long count;
    private BinaryEncoder encoder;
    private GenericDatumWriter<GenericRecord> writer;
    private org.apache.avro.Schema schema;

    long size(GenericRecord row) {
      if (schema != row.getSchema()) {
        schema = row.getSchema();
        writer = new GenericDatumWriter<>(schema);
      }
      count = 0;
      encoder = EncoderFactory.get().directBinaryEncoder(this, encoder);
      try {
        writer.write(row, encoder);
        encoder.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return count;
    }

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
