package io.streamlab.udf;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A user function applied by the ingestion pipeline to every decoded event, before it becomes a
 * table row ({@code --udfClassName}, optionally from {@code --udfJar}). It gets the event as an
 * Avro record of the canonical event schema and returns a record of the same schema (the same
 * object, changed, or a new one). One instance per pipeline worker thread; a public no-argument
 * constructor is required.
 *
 * <p>Whatever it throws, or a null or wrongly-shaped result, sends that event to the dead-letter
 * table with stage {@code udf}; the run goes on.
 */
public interface EventFunction {
  /** Called once per instance before the first event. */
  default void open(Schema eventSchema) throws Exception {}

  GenericRecord apply(GenericRecord event) throws Exception;
}
