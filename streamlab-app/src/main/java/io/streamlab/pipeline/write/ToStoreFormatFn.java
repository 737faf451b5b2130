package io.streamlab.pipeline.write;

import io.streamlab.metrics.Clock;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.schema.SystemColumns;
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

  ToStoreFormatFn(FormatToStore format, boolean jsonRows, Sharding sharding) {
    this.format = format;
    this.jsonRows = jsonRows;
    this.sharding = sharding;
  }

  @Setup
  public void setup() {
    sizes = new ElementSizes(jsonRows ? FormatToStore.TABLE_ROW : format);
  }

  @ProcessElement
  public void process(@Element GenericRecord row, MultiOutputReceiver out) {
    try {
      long start = System.nanoTime();
      Object element = format.fromRecord(row);
      if (jsonRows) element = format.toJsonRow(element, row.getSchema());
      int key = sharding.key((Integer) row.get(SystemColumns.PRODUCER_ID), (Long) row.get(SystemColumns.SEQUENCE));
      long end = System.nanoTime();
      IngestMetrics.get().stage(Stage.CONVERT).record(1, sizes.bytes(element, row.getSchema()), end - start, 1,
          Clock.micros(end) - (Long) row.get(SystemColumns.SEND_TIME_MICROS));
      out.get(ELEMENTS).output(KV.of(key, element));
    } catch (RuntimeException e) {
      out.get(FAILED).output(WriteDeadLetters.of(DeadLetters.Stage.CONVERT, e, row));
    }
  }
}
