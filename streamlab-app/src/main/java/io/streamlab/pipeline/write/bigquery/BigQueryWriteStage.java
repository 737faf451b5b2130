package io.streamlab.pipeline.write.bigquery;

import com.google.api.services.bigquery.model.TableRow;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.RowsWithDeadLetters;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.bigquery.BigQueryTable;
import io.streamlab.store.bigquery.BigQueryTypes;
import io.streamlab.store.bigquery.BigQueryValues;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.avro.schemas.utils.AvroUtils;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * The write stage of {@code --store=bigquery}: table records -> the {@code formatToStore} element
 * -> BigQueryIO.Write (configured by {@link BigQueryWrites}) into PROJECT:DATASET.TABLE; dead
 * letters of the front stages, of the conversion and every insert BigQuery refused (with its
 * error) -> BigQueryIO into {@code <table>_failed}. BigQueryIO shuffles, batches and retries as
 * the write method says, so none of the DuckDB/PostgreSQL write path (Sharding, BatchAppendFn,
 * throttling) is involved.
 */
public final class BigQueryWriteStage extends PTransform<RowsWithDeadLetters, PDone> {
  private final Schema tableSchema;
  private final BigQueryTable table;
  private final WriteSettings w;
  private final BigQueryServices services;

  /** BigQueryIO's options for {@code w} are set before the graph is built: {@link BigQueryWrites#configureOptions}. */
  public BigQueryWriteStage(Schema tableSchema, BigQueryTable table, WriteSettings w) {
    this(tableSchema, table, w, null);
  }

  private BigQueryWriteStage(Schema tableSchema, BigQueryTable table, WriteSettings w, BigQueryServices services) {
    this.tableSchema = tableSchema;
    this.table = table;
    this.w = w;
    this.services = services;
  }

  /** The same write against {@code services} instead of BigQuery (tests: Beam's FakeBigQueryServices). */
  BigQueryWriteStage withTestServices(BigQueryServices services) {
    return new BigQueryWriteStage(tableSchema, table, w, services);
  }

  @Override
  public PDone expand(RowsWithDeadLetters input) {
    PCollection<GenericRecord> rows = input.rows();
    boolean unbounded = rows.isBounded() == PCollection.IsBounded.UNBOUNDED;
    FormatToStore format = w.formatToStore();

    PCollectionTuple converted = rows.apply("ToBigQueryFormat",
        ParDo.of(new ToBigQueryFn(format)).withOutputTags(ToBigQueryFn.ELEMENTS, TupleTagList.of(ToBigQueryFn.FAILED)));
    PCollection<Object> elements = converted.get(ToBigQueryFn.ELEMENTS);
    switch (format) {
      case TABLE_ROW -> elements.setCoder(cast(TableRowJsonCoder.of()));
      case BEAM_ROW -> elements.setRowSchema(AvroUtils.toBeamSchema(tableSchema)); // useBeamSchema() needs it
      case AVRO_GENERIC_RECORD -> elements.setCoder(cast(AvroCoder.of(tableSchema))); // Avro's own coder: BigQuery's conversion reads strings as text anyway, and the Dataflow job shows the format by its coder
    }
    BigQueryIO.Write<Object> write =
        BigQueryWrites.forRows(format, w, table, tableSchema, unbounded);
    BigQueryIO.Write<TableRow> lettersWrite = BigQueryWrites.forDeadLetters(w,
        table.sibling(DeadLetters.tableFor(table.table())), BigQueryTypes.tableSchema(DeadLetters.SCHEMA), unbounded);
    if (services != null) {
      write = write.withTestServices(services);
      lettersWrite = lettersWrite.withTestServices(services);
    }
    WriteResult result = elements.apply("Write" + w.method() + "ToBigQuery", write);

    PCollection<GenericRecord> refused = w.method() == WriteMethod.STREAMING_INSERTS
        ? result.getFailedInsertsWithErr().apply("FailedInserts", ParDo.of(new FailedInsertFn.Streaming()))
        : result.getFailedStorageApiInserts().apply("FailedInserts", ParDo.of(new FailedInsertFn.StorageApi()));

    PCollection<TableRow> letters = PCollectionList
        .of(input.deadLetters())
        .and(converted.get(ToBigQueryFn.FAILED).setCoder(AvroCoder.of(DeadLetters.SCHEMA)))
        .and(refused.setCoder(AvroCoder.of(DeadLetters.SCHEMA)))
        .apply("AllDeadLetters", Flatten.pCollections())
        .apply("DeadLettersToTableRows", MapElements.into(TypeDescriptor.of(TableRow.class))
            .via(BigQueryValues::toTableRow))
        .setCoder(TableRowJsonCoder.of());
    WriteResult lettersResult = letters.apply("WriteDeadLettersToBigQuery", lettersWrite);
    // Nowhere further to send a dead letter BigQuery refuses: every value of that fixed schema is
    // set by streamlab, so it would be a streamlab bug. It is logged with the row, never dropped silently.
    if (w.method() == WriteMethod.STREAMING_INSERTS) {
      logRefused(lettersResult.getFailedInsertsWithErr());
    } else {
      logRefused(lettersResult.getFailedStorageApiInserts());
    }
    return PDone.in(input.getPipeline());
  }

  private static <T> void logRefused(PCollection<T> refused) {
    refused.apply("LogRefusedDeadLetters", ParDo.of(new FailedInsertFn.Log<>()));
  }

  @SuppressWarnings("unchecked")
  private static <T> org.apache.beam.sdk.coders.Coder<Object> cast(org.apache.beam.sdk.coders.Coder<T> c) {
    return (org.apache.beam.sdk.coders.Coder<Object>) c;
  }
}
