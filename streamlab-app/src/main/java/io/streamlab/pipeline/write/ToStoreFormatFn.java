package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Before a shuffle: table record -> the element the write stage carries ({@link Conversion}),
 * keyed for the shuffle by {@link Sharding}. A record that cannot be converted is dead-lettered
 * (stage CONVERT).
 */
final class ToStoreFormatFn extends DoFn<GenericRecord, KV<Integer, Object>> {
  static final TupleTag<KV<Integer, Object>> ELEMENTS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};

  private final Conversion conversion;
  private final Sharding sharding;

  ToStoreFormatFn(FormatToStore format, boolean jsonRows, Sharding sharding) {
    this.conversion = new Conversion(format, jsonRows);
    this.sharding = sharding;
  }

  @Setup
  public void setup() {
    conversion.setup();
  }

  @FinishBundle
  public void finishBundle() {
    conversion.flush();
  }

  @ProcessElement
  public void process(@Element GenericRecord row, MultiOutputReceiver out) {
    try {
      Object element = conversion.convert(row);
      int key = sharding.key(conversion.producerId(row), conversion.sequence(row));
      out.get(ELEMENTS).output(KV.of(key, element));
    } catch (RuntimeException e) {
      out.get(FAILED).output(WriteDeadLetters.of(DeadLetters.Stage.CONVERT, e, row));
    }
  }
}
