package io.streamlab.udf;

import java.nio.charset.StandardCharsets;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * Test UDF misbehaving on marked events (first field starting with a marker), passing the rest
 * unchanged: it throws, returns a record of another schema, recurses until the stack overflows,
 * or returns a string the table store refuses (invalid UTF-8, which no decoder would let through).
 */
public final class HostileFunction implements EventFunction {
  public static final String THROW = "BOOM";
  public static final String OTHER_SCHEMA = "OTHER";
  public static final String RECURSE = "RECURSE";
  public static final String REFUSED = "REFUSED";

  @Override
  public GenericRecord apply(GenericRecord event) {
    String first = event.get(0) == null ? "" : event.get(0).toString();
    if (first.startsWith(THROW)) throw new IllegalStateException("HostileFunction refuses event " + first);
    if (first.startsWith(OTHER_SCHEMA)) {
      GenericRecord other = new GenericData.Record(SchemaBuilder.record("Other").fields().requiredInt("x").endRecord());
      other.put(0, 1);
      return other;
    }
    if (first.startsWith(RECURSE)) return apply(event);
    if (first.startsWith(REFUSED)) {
      byte[] bad = (REFUSED + "-\u0000").getBytes(StandardCharsets.US_ASCII);
      bad[bad.length - 1] = (byte) 0xC3; // a lead byte with nothing after it
      event.put(0, new Utf8(bad));
    }
    return event;
  }
}
