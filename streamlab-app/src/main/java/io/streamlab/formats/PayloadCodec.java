package io.streamlab.formats;

import java.io.Serializable;
import org.apache.avro.generic.GenericRecord;

/**
 * Encodes and decodes one event of a known schema to and from its wire format (THRIFT binary,
 * AVRO binary, JSON). Every codec works from the canonical Avro schema, so the same generated
 * {@link GenericRecord} can travel in any format. Implementations are thread-confined: create one
 * per thread (they may reuse buffers), but they are Serializable so a Beam DoFn can carry one.
 */
public interface PayloadCodec extends Serializable {
  byte[] encode(GenericRecord event);

  /** @throws IllegalArgumentException (or another RuntimeException) when bytes are not an event. */
  GenericRecord decode(byte[] payload);
}
