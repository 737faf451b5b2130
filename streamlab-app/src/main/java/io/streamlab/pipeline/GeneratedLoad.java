package io.streamlab.pipeline;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.metrics.Clock;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.pipeline.write.WriteStage;
import io.streamlab.pipeline.write.WriteTarget;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.transforms.ParDo;

/**
 * Generated table records at a fixed rate, straight into the pipeline's write stage: the load of
 * a sink benchmark, without broker and decoder, so the writers are what is measured. Rows are
 * producer 0, sequences 0..rows-1, so TableVerifier counts lost and duplicated rows as for a run.
 *
 * <p>The source is unbounded (a rate-limited counter, checkpointed like a Kafka offset) and rows
 * past {@code rows} are dropped: a failed bundle is then retried from the last checkpoint, as in
 * the ingest pipeline. (Bounded, the counter is read through a splittable DoFn whose restore
 * re-reads everything.) The caller cancels the job once the table is complete.
 */
public final class GeneratedLoad {
  /** The producer id of every generated row. */
  public static final int PRODUCER_ID = 0;

  private GeneratedLoad() {}

  /**
   * @param ratePerSec rows per second offered (the source emits no faster)
   */
  public static void build(Pipeline pipeline, StoreSpec store, String table, Schema eventSchema, long rows,
      long ratePerSec, long seed, int appendBatchSize) {
    build(pipeline, store, table, eventSchema, rows, ratePerSec, seed, appendBatchSize, WriteSettings.defaults());
  }

  /** The same load through the write stage of the given write method. */
  public static void build(Pipeline pipeline, StoreSpec store, String table, Schema eventSchema, long rows,
      long ratePerSec, long seed, int appendBatchSize, WriteSettings write) {
    WriteStage.configure(pipeline.getOptions(), store, write);
    Schema tableSchema = SystemColumns.tableRecordSchema(eventSchema);
    PCollection<GenericRecord> generated = pipeline
        .apply("Generate", GenerateSequence.from(0).withRate(ratePerSec, org.joda.time.Duration.standardSeconds(1)))
        .apply("MakeRows", ParDo.of(new MakeRowFn(eventSchema, seed, rows)))
        .setCoder(AvroCoder.of(tableSchema));
    PCollection<GenericRecord> noDeadLetters =
        pipeline.apply("NoDeadLetters", Create.empty(AvroCoder.of(DeadLetters.SCHEMA)));
    RowsWithDeadLetters.of(generated, noDeadLetters)
        .apply("Write", WriteStage.of(new WriteTarget(store, table, tableSchema, appendBatchSize), write));
  }

  /** Sequence number -> random event with its system fields (send time = now). */
  static final class MakeRowFn extends DoFn<Long, GenericRecord> {
    private final String eventSchemaJson;
    private final long seed;
    private final long rows;
    private transient Schema tableSchema;
    private transient RandomRecordFactory events;

    MakeRowFn(Schema eventSchema, long seed, long rows) {
      this.eventSchemaJson = eventSchema.toString();
      this.seed = seed;
      this.rows = rows;
    }

    @Setup
    public void setup() {
      Schema event = new Schema.Parser().parse(eventSchemaJson);
      tableSchema = SystemColumns.tableRecordSchema(event);
      events = new RandomRecordFactory(event, GeneratorSettings.builder().build(), seed);
    }

    @ProcessElement
    public void process(@Element Long sequence, OutputReceiver<GenericRecord> out) {
      if (sequence >= rows) return;
      out.output(SystemColumns.tableRecord(tableSchema, events.next(), PRODUCER_ID, sequence, Clock.nowMicros()));
    }
  }
}
