package io.streamlab.formats;

import java.io.Serializable;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
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

  /**
   * The event decoded into a record of {@code recordSchema}, whose leading fields are the event
   * schema's and whose further fields are left null: a table record
   * ({@link SystemColumns#tableRecordSchema}) without a second record to copy the event into. By
   * default a decode and that copy; a codec that builds its records itself builds this one.
   *
   * @throws IllegalArgumentException (or another RuntimeException) when bytes are not an event.
   */
  default GenericData.Record decodeAs(byte[] payload, Schema recordSchema) {
    return SystemColumns.widened(recordSchema, decode(payload));
  }
}
