package io.streamlab.pipeline.write;

import io.streamlab.store.postgres.CopyRow;
import org.apache.avro.Schema;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.common.ElementByteSizeObserver;

/**
 * The size of an element after conversion to the store format, for the convert stage's mean
 * element size: a JSON row's length (exact, for free), a Beam Row's or an Avro record's encoded
 * size with the format's coder (its byte-size observer, as runners size elements), measured on one
 * element in {@link #EVERY} and counted for all of them, so the mean stays right while the coder
 * runs on a sixty-fourth of the elements. One instance per DoFn instance (one thread).
 */
final class ElementSizes {
  static final int EVERY = 64;

  private final FormatToStore format;
  private final Observer observer = new Observer();
  private Schema schema;
  private Coder<Object> coder;
  private long seen;

  ElementSizes(FormatToStore format) {
    this.format = format;
  }

  /** The bytes to count for this element: its size, {@link #EVERY} times its size, or 0. */
  long bytes(Object element, Schema avro) {
    if (element instanceof String s) return s.length(); // JSON rows: ASCII but for non-ASCII strings
    if (element instanceof CopyRow r && r.encodedBytes() >= 0) return r.encodedBytes();
    if (seen++ % EVERY != 0) return 0;
    if (coder == null || !avro.equals(schema)) {
      schema = avro;
      coder = format.coder(avro);
    }
    observer.bytes = 0;
    try {
      coder.registerByteSizeObserver(element, observer);
    } catch (Exception e) {
      throw new IllegalStateException("cannot size a " + format + " element", e);
    }
    observer.advance();
    return observer.bytes * EVERY;
  }

  private static final class Observer extends ElementByteSizeObserver {
    long bytes;

    @Override
    protected void reportElementSize(long elementByteSize) {
      bytes += elementByteSize;
    }
  }
}
