package io.streamlab.pipeline.write;

import io.streamlab.metrics.Clock;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Table record -> the element the write stage carries ({@link FormatToStore}; for
 * STREAMING_INSERTS always the JSON row of the insert request), keyed for the shuffle by
 * {@link Sharding}. A record that cannot be converted is dead-lettered (stage CONVERT).
 */
final class ToStoreFormatFn extends DoFn<GenericRecord, KV<Integer, Object>> {
  static final TupleTag<KV<Integer, Object>> ELEMENTS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};

  private final FormatToStore format;
  private final boolean jsonRows;
  private final Sharding sharding;
  private transient ElementSizes sizes;
  private transient IngestMetrics.Tally convertStage;
  /** Positions of the system fields in the last record schema seen (a by-name lookup per row was a hash lookup). */
  private transient Schema positionsOf;
  private transient int producerPos, sequencePos, sendTimePos;

  ToStoreFormatFn(FormatToStore format, boolean jsonRows, Sharding sharding) {
    this.format = format;
    this.jsonRows = jsonRows;
    this.sharding = sharding;
  }

  @Setup
  public void setup() {
    sizes = new ElementSizes(jsonRows ? FormatToStore.TABLE_ROW : format);
    convertStage = IngestMetrics.get().stage(Stage.CONVERT).tally();
  }

  @FinishBundle
  public void finishBundle() {
    convertStage.flush();
  }

  @ProcessElement
  public void process(@Element GenericRecord row, MultiOutputReceiver out) {
    try {
      long start = System.nanoTime();
      Object element = format.fromRecord(row);
      if (jsonRows) element = format.toJsonRow(element, row.getSchema());
      Schema schema = row.getSchema();
      if (schema != positionsOf) {
        producerPos = schema.getField(SystemColumns.PRODUCER_ID).pos();
        sequencePos = schema.getField(SystemColumns.SEQUENCE).pos();
        sendTimePos = schema.getField(SystemColumns.SEND_TIME_MICROS).pos();
        positionsOf = schema;
      }
      int key = sharding.key((Integer) row.get(producerPos), (Long) row.get(sequencePos));
      long end = System.nanoTime();
      convertStage.record(1, sizes.bytes(element, schema), end - start, 1, Clock.micros(end) - (Long) row.get(sendTimePos));
      out.get(ELEMENTS).output(KV.of(key, element));
    } catch (RuntimeException e) {
      out.get(FAILED).output(WriteDeadLetters.of(DeadLetters.Stage.CONVERT, e, row));
    }
  }
}
