package io.streamlab.pipeline;

import io.streamlab.formats.EventHeaders;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.Causes;
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
 * An event whose identity is unknown has NULL producer id and sequence: no real identity is NULL
 * (a marker such as -1 could be a real, if lying, id).
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
          .name(SystemColumns.PRODUCER_ID).type().nullable().intType().noDefault()
          .name(SystemColumns.SEQUENCE).type().nullable().longType().noDefault()
          .name(SystemColumns.SEND_TIME_MICROS).type().longType().noDefault()
          .endRecord();

  private DeadLetters() {}

  public static String tableFor(String table) {
    return table + "_failed";
  }

  /**
   * @param stamp the event identity if its headers could be read, else null (then NULL identity)
   */
  public static GenericRecord of(Stage stage, Throwable error, EventHeaders.Stamp stamp,
      Headers headers, byte[] original) {
    return of(stage, error, stamp, EventHeaders.describe(headers), original, stackTrace(error));
  }

  /**
   * @param headers the message headers as text (and where the message was read)
   * @param cause the stack trace, or a reference to the dead letter that carries it (see {@link Traces})
   */
  static GenericRecord of(Stage stage, Throwable error, EventHeaders.Stamp stamp, String headers, byte[] original,
      String cause) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("event_id", stamp == null ? "unknown" : stamp.eventId());
    r.put("stage", stage.name().toLowerCase());
    r.put("error_message", String.valueOf(error.getMessage()));
    r.put("cause", cause);
    r.put("headers", headers);
    r.put("original_bytes", ByteBuffer.wrap(original == null ? new byte[0] : original));
    r.put(SystemColumns.PRODUCER_ID, stamp == null ? null : stamp.producerId());
    r.put(SystemColumns.SEQUENCE, stamp == null ? null : stamp.sequence());
    r.put(SystemColumns.SEND_TIME_MICROS, stamp == null ? 0L : stamp.sendTimeMicros());
    return r;
  }

  /**
   * Stack traces of one worker, each stored once: the first dead letter of a cause (stage,
   * exception class, the frame that threw) carries the trace, later ones only name that first
   * dead letter. A hostile envelope announcing thousands of events, or a stream of equally bad
   * messages, then costs a short row each instead of kilobytes of the same trace.
   */
  static final class Traces {
    /** Causes remembered per worker; beyond, the memory starts afresh (a trace is stored again). */
    private static final int MAX_CAUSES = 10_000;
    private final java.util.Map<String, String> firstEventByCause = new java.util.HashMap<>();

    String cause(Stage stage, Throwable error, EventHeaders.Stamp stamp) {
      Throwable root = Causes.root(error);
      StackTraceElement[] frames = root.getStackTrace();
      String key = stage + " " + error.getClass().getName() + " " + root.getClass().getName()
          + (frames.length > 0 ? " at " + frames[0] : "");
      String first = firstEventByCause.get(key);
      if (first != null) return "same cause as the dead letter of event " + first + " (its cause holds the trace): " + key;
      if (firstEventByCause.size() >= MAX_CAUSES) firstEventByCause.clear();
      firstEventByCause.put(key, stamp == null ? "unknown" : stamp.eventId());
      return stackTrace(error);
    }
  }

  private static String stackTrace(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    String s = w.toString();
    return s.length() > 4000 ? s.substring(0, 4000) : s; // the top frames say why; keep rows small
  }
}
