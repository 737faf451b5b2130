package io.streamlab.pipeline;

import io.streamlab.formats.EventHeaders;
import io.streamlab.schema.SystemColumns;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Headers;

/**
 * Events that could not be ingested, kept with their cause and original bytes in the table
 * {@code <table>_failed}, so bad input never kills a run and never disappears. The dead-letter
 * row carries the same system columns as a good row, so verification counts it as delivered.
 */
public final class DeadLetters {
  /** Where in the pipeline the event failed. */
  public enum Stage { DECOMPRESS, DECODE, UDF, CONVERT, WRITE }

  public static final Schema SCHEMA =
      SchemaBuilder.record("FailedEvent").namespace("io.streamlab").fields()
          .requiredString("event_id")
          .requiredString("stage")
          .requiredString("error_message")
          .requiredString("cause")
          .requiredString("headers")
          .requiredBytes("original_bytes")
          .name(SystemColumns.PRODUCER_ID).type().intType().noDefault()
          .name(SystemColumns.SEQUENCE).type().longType().noDefault()
          .name(SystemColumns.SEND_TIME_MICROS).type().longType().noDefault()
          .endRecord();

  private DeadLetters() {}

  public static String tableFor(String table) {
    return table + "_failed";
  }

  /**
   * @param stamp the event identity if its headers could be read, else null (then producer -1)
   */
  public static GenericRecord of(Stage stage, Throwable error, EventHeaders.Stamp stamp,
      Headers headers, byte[] original) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("event_id", stamp == null ? "unknown" : stamp.eventId());
    r.put("stage", stage.name().toLowerCase());
    r.put("error_message", String.valueOf(error.getMessage()));
    r.put("cause", stackTrace(error));
    r.put("headers", EventHeaders.describe(headers));
    r.put("original_bytes", ByteBuffer.wrap(original == null ? new byte[0] : original));
    r.put(SystemColumns.PRODUCER_ID, stamp == null ? -1 : stamp.producerId());
    r.put(SystemColumns.SEQUENCE, stamp == null ? -1L : stamp.sequence());
    r.put(SystemColumns.SEND_TIME_MICROS, stamp == null ? 0L : stamp.sendTimeMicros());
    return r;
  }

  private static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    String s = w.toString();
    return s.length() > 4000 ? s.substring(0, 4000) : s; // the top frames say why; keep rows small
  }
}
