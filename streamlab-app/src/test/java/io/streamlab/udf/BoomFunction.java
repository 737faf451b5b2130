package io.streamlab.udf;

import org.apache.avro.generic.GenericRecord;

/** Test UDF: throws on events whose first field starts with "BOOM", passes the rest unchanged. */
public final class BoomFunction implements EventFunction {
  public static final String MARKER = "BOOM";

  @Override
  public GenericRecord apply(GenericRecord event) {
    if (event.get(0) != null && event.get(0).toString().startsWith(MARKER)) {
      throw new IllegalStateException("BoomFunction refuses event " + event.get(0));
    }
    return event;
  }
}
