package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Table records -> the element the write carries, keyed for its shuffle ({@link ToStoreFormatFn}),
 * under {@link #ELEMENTS}; records that cannot be converted as dead letters under {@link #FAILED}.
 */
final class ToStoreFormat extends PTransform<PCollection<GenericRecord>, PCollectionTuple> {
  static final TupleTag<KV<Integer, Object>> ELEMENTS = ToStoreFormatFn.ELEMENTS;
  static final TupleTag<GenericRecord> FAILED = ToStoreFormatFn.FAILED;

  private final FormatToStore format;
  private final boolean jsonRows;
  private final Sharding sharding;
  private final Coder<Object> elementCoder;

  /**
   * @param jsonRows carry the JSON row of an insert request whatever {@code format} (STREAMING_INSERTS)
   * @param elementCoder the coder of the element carried (without its key)
   */
  ToStoreFormat(FormatToStore format, boolean jsonRows, Sharding sharding, Coder<Object> elementCoder) {
    this.format = format;
    this.jsonRows = jsonRows;
    this.sharding = sharding;
    this.elementCoder = elementCoder;
  }

  @Override
  public PCollectionTuple expand(PCollection<GenericRecord> rows) {
    PCollectionTuple out = rows.apply("Convert",
        ParDo.of(new ToStoreFormatFn(format, jsonRows, sharding)).withOutputTags(ELEMENTS, TupleTagList.of(FAILED)));
    out.get(ELEMENTS).setCoder(KvCoder.of(VarIntCoder.of(), elementCoder));
    out.get(FAILED).setCoder(AvroCoder.of(DeadLetters.SCHEMA));
    return out;
  }
}
