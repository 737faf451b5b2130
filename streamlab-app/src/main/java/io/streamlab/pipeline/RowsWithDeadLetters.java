package io.streamlab.pipeline;

import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.TupleTag;

/**
 * What the front stages hand the write stage: table records, and the dead letters of every stage
 * so far ({@link DeadLetters#SCHEMA} records). A typed pair rather than a bare PCollectionTuple,
 * so a write transform says in its signature what it takes ({@code PTransform<RowsWithDeadLetters,
 * PDone>}) and nobody has to know which tag holds what (as Beam's own {@code WriteResult}).
 */
public final class RowsWithDeadLetters implements PInput, POutput {
  private static final TupleTag<GenericRecord> ROWS = new TupleTag<>("rows") {};
  private static final TupleTag<GenericRecord> DEAD_LETTERS = new TupleTag<>("deadLetters") {};

  private final PCollectionTuple tuple;

  private RowsWithDeadLetters(PCollectionTuple tuple) {
    this.tuple = tuple;
  }

  public static RowsWithDeadLetters of(PCollection<GenericRecord> rows, PCollection<GenericRecord> deadLetters) {
    return new RowsWithDeadLetters(PCollectionTuple.of(ROWS, rows).and(DEAD_LETTERS, deadLetters));
  }

  public PCollection<GenericRecord> rows() {
    return tuple.get(ROWS);
  }

  public PCollection<GenericRecord> deadLetters() {
    return tuple.get(DEAD_LETTERS);
  }

  /** Applies {@code transform} to this pair, as the step {@code name} (as PCollection.apply). */
  public <T extends POutput> T apply(String name, PTransform<? super RowsWithDeadLetters, T> transform) {
    return Pipeline.applyTransform(name, this, transform);
  }

  @Override
  public Pipeline getPipeline() {
    return tuple.getPipeline();
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    return tuple.expand();
  }

  @Override
  public void finishSpecifyingOutput(String transformName, PInput input, PTransform<?, ?> transform) {
    tuple.finishSpecifyingOutput(transformName, input, transform);
  }
}
