package io.streamlab.pipeline;

import io.streamlab.formats.AvroRecordCoder;
import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.postgres.ThriftCopyRows;
import org.apache.avro.Schema;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The front of the ingestion pipeline: broker messages -> unbatch/decompress -> decode -> UDF ->
 * table records (event fields + system fields), with every failure as a dead-letter record.
 * The three stages run in one DoFn (the runner would fuse them anyway, and the DirectRunner would
 * otherwise encode every event between them); each stage names itself in its dead letters.
 */
public final class FrontStages extends PTransform<PCollection<KafkaRecord<byte[], byte[]>>, RowsWithDeadLetters> {
  private final Schema eventSchema;
  private final TransportFormat format;
  private final Decoding decoding;
  private final boolean storeRows;

  /** @throws IllegalArgumentException at construction when the UDF cannot be loaded */
  public FrontStages(Schema eventSchema, TransportFormat format, Decoding decoding) {
    this(eventSchema, format, decoding, false);
  }

  /**
   * @param storeRows Thrift events become their PostgreSQL COPY rows in one pass, no table record
   *     between ({@link ThriftCopyRows}; formatToStore STORE_ROW)
   * @throws IllegalArgumentException at construction when the UDF cannot be loaded
   */
  public FrontStages(Schema eventSchema, TransportFormat format, Decoding decoding, boolean storeRows) {
    this.eventSchema = eventSchema;
    this.format = format;
    this.decoding = decoding;
    this.storeRows = storeRows;
    decoding.udf().check(); // a bad --udfClassName fails at start-up, not in a worker
  }

  public static Schema tableSchema(Schema eventSchema) {
    return SystemColumns.tableRecordSchema(eventSchema);
  }

  @Override
  public RowsWithDeadLetters expand(PCollection<KafkaRecord<byte[], byte[]>> messages) {
    PCollectionTuple out = messages.apply("UnbatchDecodeUdf",
        ParDo.of(new FrontFn(eventSchema, format, decoding, storeRows))
            .withOutputTags(FrontFn.ROWS, TupleTagList.of(FrontFn.FAILED)));
    return RowsWithDeadLetters.of(
        out.get(FrontFn.ROWS).setCoder(AvroRecordCoder.of(tableSchema(eventSchema))),
        out.get(FrontFn.FAILED).setCoder(AvroCoder.of(DeadLetters.SCHEMA)));
  }
}
