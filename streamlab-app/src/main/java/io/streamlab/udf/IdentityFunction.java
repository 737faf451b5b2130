package io.streamlab.udf;

import org.apache.avro.generic.GenericRecord;

/** The default UDF: the event unchanged. */
public final class IdentityFunction implements EventFunction {
  @Override
  public GenericRecord apply(GenericRecord event) {
    return event;
  }
}
