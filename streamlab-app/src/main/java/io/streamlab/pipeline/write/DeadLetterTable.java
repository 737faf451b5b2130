package io.streamlab.pipeline.write;

import io.streamlab.pipeline.DeadLetters;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;

/** Dead letters of a step ({@link DeadLetters#SCHEMA} records) -> {@code <table>_failed}. */
final class DeadLetterTable extends PTransform<PCollection<GenericRecord>, PDone> {
  private final WriteTarget target;

  DeadLetterTable(WriteTarget target) {
    this.target = target;
  }

  @Override
  public PDone expand(PCollection<GenericRecord> letters) {
    letters.apply("Append", ParDo.of(Appenders.deadLetters(target)));
    return PDone.in(letters.getPipeline());
  }
}
