package io.streamlab.pipeline.write.bigquery;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteDeadLetters;
import io.streamlab.store.bigquery.BigQueryValues;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Table record -> the element BigQueryIO is given for {@code formatToStore}: a TableRow, a Beam
 * Row, or the Avro record itself (formatted by BigQueryIO's format function). A record that cannot
 * be converted is dead-lettered (stage CONVERT), as in the other stores' write stage.
 */
final class ToBigQueryFn extends DoFn<GenericRecord, Object> {
  static final TupleTag<Object> ELEMENTS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};

  private final FormatToStore format;

  ToBigQueryFn(FormatToStore format) {
    this.format = format;
  }

  @Setup
  public void setup() {
    IngestMetrics.get().writerOpened(); // the status line's "ready": BigQueryIO opens its own clients
  }

  @ProcessElement
  public void process(@Element GenericRecord row, MultiOutputReceiver out) {
    try {
      long start = System.nanoTime();
      Object element = switch (format) {
        case TABLE_ROW -> BigQueryValues.toTableRow(row);
        case BEAM_ROW, AVRO_GENERIC_RECORD, STORE_ROW -> format.fromRecord(row); // STORE_ROW: refused before (IngestSettings)
      };
      IngestMetrics.get().stage(Stage.CONVERT).record(1, 0, System.nanoTime() - start);
      out.get(ELEMENTS).output(element);
    } catch (RuntimeException e) {
      out.get(FAILED).output(WriteDeadLetters.of(DeadLetters.Stage.CONVERT, e, row));
    }
  }
}
