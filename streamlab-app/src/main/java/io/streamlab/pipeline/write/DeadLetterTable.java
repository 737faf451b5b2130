package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PDone;

/** Dead letters of every stage ({@link DeadLetters#SCHEMA} records) -> {@code <table>_failed}. */
final class DeadLetterTable extends PTransform<PCollectionList<GenericRecord>, PDone> {
  private final WriteTarget target;

  DeadLetterTable(WriteTarget target) {
    this.target = target;
  }

  @Override
  public PDone expand(PCollectionList<GenericRecord> letters) {
    letters
        .apply("AllDeadLetters", Flatten.pCollections())
        .apply("KeyDeadLetters", ParDo.of(new KeyedZero()))
        .setCoder(KvCoder.of(VarIntCoder.of(), FormatToStore.AVRO_GENERIC_RECORD.coder(DeadLetters.SCHEMA)))
        .apply("Append", ParDo.of(Appenders.deadLetters(target)));
    return PDone.in(letters.getPipeline());
  }

  /** The writer's element type; dead letters are not shuffled, the key is unused. */
  private static final class KeyedZero extends DoFn<GenericRecord, KV<Integer, Object>> {
    @ProcessElement
    public void process(@Element GenericRecord r, OutputReceiver<KV<Integer, Object>> out) {
      out.output(KV.of(0, r));
    }
  }
}
