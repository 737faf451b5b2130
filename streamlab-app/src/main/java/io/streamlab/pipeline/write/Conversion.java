package io.streamlab.pipeline.write;

import io.streamlab.metrics.Clock;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.schema.SystemColumns;
import java.io.Serializable;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Table record -> the element the write stage carries ({@link FormatToStore}; for
 * STREAMING_INSERTS always the JSON row of the insert request), timed and counted as the CONVERT
 * stage. Used where the conversion runs: in its own step before a shuffle ({@link ToStoreFormatFn}),
 * or in the writer of a method without one ({@link BatchAppendFn}), so that every element of
 * every method pays the conversion the study's {@code formatToStore} describes.
 */
final class Conversion implements Serializable {
  private final FormatToStore format;
  private final boolean jsonRows;
  private transient ElementSizes sizes;
  private transient IngestMetrics.Tally stage;
  /** Positions of the system fields in the last record schema seen (a by-name lookup per row was a hash lookup). */
  private transient Schema positionsOf;
  private transient int producerPos, sequencePos, sendTimePos;

  /** @param jsonRows carry the JSON row of an insert request whatever {@code format} (STREAMING_INSERTS) */
  Conversion(FormatToStore format, boolean jsonRows) {
    this.format = format;
    this.jsonRows = jsonRows;
  }

  void setup() {
    sizes = new ElementSizes(jsonRows ? FormatToStore.TABLE_ROW : format);
    stage = IngestMetrics.get().stage(Stage.CONVERT).tally();
  }

  /** Publishes what {@link #convert} counted since the last call (at the end of a bundle). */
  void flush() {
    stage.flush();
  }

  /** @throws RuntimeException when the record cannot be carried in this format (a dead letter of stage CONVERT) */
  Object convert(GenericRecord row) {
    long start = System.nanoTime();
    Schema schema = positions(row);
    Object element = format.fromRecord(row);
    if (jsonRows) element = format.toJsonRow(element, schema);
    long end = System.nanoTime();
    stage.record(1, sizes.bytes(element, schema), end - start, 1, Clock.micros(end) - (Long) row.get(sendTimePos));
    if (stage.flushDue(end)) stage.flush();
    return element;
  }

  /** The row's identity, once {@link #convert} has been given it. */
  int producerId(GenericRecord row) {
    return (Integer) row.get(producerPos);
  }

  long sequence(GenericRecord row) {
    return (Long) row.get(sequencePos);
  }

  private Schema positions(GenericRecord row) {
    Schema schema = row.getSchema();
    if (schema != positionsOf) {
      producerPos = schema.getField(SystemColumns.PRODUCER_ID).pos();
      sequencePos = schema.getField(SystemColumns.SEQUENCE).pos();
      sendTimePos = schema.getField(SystemColumns.SEND_TIME_MICROS).pos();
      positionsOf = schema;
    }
    return schema;
  }
}
