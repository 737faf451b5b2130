package io.streamlab.pipeline.write.bigquery;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.bigquery.BigQueryTable;
import io.streamlab.store.bigquery.BigQueryTypes;
import io.streamlab.store.bigquery.BigQueryValues;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.CreateDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO.Write.WriteDisposition;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.extensions.avro.schemas.utils.AvroUtils;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.EnumerationType;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

/**
 * streamlab's write flags mapped onto BigQueryIO's own. One place, so the mapping can be read
 * (and tested) as a table:
 *
 * <pre>
 * --writeMethod                       BigQueryIO.Write.Method of the same name
 * --formatToStore TABLE_ROW           Write&lt;TableRow&gt;.withFormatFunction(identity)  (writeTableRows)
 *                 BEAM_ROW            Write&lt;Row&gt;.useBeamSchema() (Row -&gt; TableRow if BigQueryIO cannot: see beamRows)
 *                 AVRO_GENERIC_RECORD Write&lt;GenericRecord&gt;: Storage API methods withAvroFormatFunction;
 *                                     STREAMING_INSERTS withFormatFunction(record -&gt; TableRow)
 * --numStreamingKeys                  BigQueryOptions.numStreamingKeys
 * --maxStreamingRowsToBatch           BigQueryOptions.maxStreamingRowsToBatch
 * --maxStreamingBatchSize             BigQueryOptions.maxStreamingBatchSize
 * --autoSharding                      withAutoSharding()                  (unbounded input only)
 * --numStorageWriteApiStreams         withNumStorageWriteApiStreams(n)    (0 = auto, as BigQueryIO)
 * --triggeringFrequencySec            withTriggeringFrequency(s)          (STORAGE_WRITE_API, unbounded input)
 * --useConnectionPool                 BigQueryOptions.useStorageApiConnectionPool
 * --connectionPoolSize                BigQueryOptions.min/maxConnectionPoolConnections
 * </pre>
 *
 * Always: CREATE_IF_NEEDED with the TableSchema translated from the canonical schema
 * (BigQueryTypes), WRITE_APPEND. Streaming inserts of rows carry the event identity as insert id
 * (EventInsertId; dead letters keep BigQueryIO's random ids: an undecodable event has no identity). Streaming inserts retry transient errors only and report the
 * others with their error (extended error info), so a row BigQuery refuses reaches the dead
 * letters instead of being retried forever (BigQueryIO's default policy) or dropped.
 *
 * <p>A bounded ingestion (--maxRecords, --maxReadTime) is a batch write, where BigQueryIO refuses a
 * triggering frequency and auto-sharding: both are then left out.
 */
public final class BigQueryWrites {
  private BigQueryWrites() {}

  /** The write of table records of {@code rowSchema} carried as {@code format}, for {@code method}. */
  @SuppressWarnings("unchecked")
  public static <T> BigQueryIO.Write<T> forRows(FormatToStore format, WriteSettings w, BigQueryTable table,
      org.apache.avro.Schema rowSchema, boolean unbounded) {
    TableSchema schema = BigQueryTypes.tableSchema(rowSchema);
    BigQueryIO.Write<?> write = switch (format) {
      case TABLE_ROW -> BigQueryIO.writeTableRows().withSchema(schema);
      case BEAM_ROW -> beamRows(rowSchema, schema);
      case AVRO_GENERIC_RECORD -> avro(w.method()).withSchema(schema);
      case STORE_ROW -> throw new IllegalArgumentException("STORE_ROW is PostgreSQL's row: not for BigQuery (IngestSettings refuses it)");
    };
    BigQueryIO.Write<T> out = (BigQueryIO.Write<T>) configure(write, w, table, unbounded);
    if (w.method() == WriteMethod.STREAMING_INSERTS) {
      out = out.withDeterministicRecordIdFn((SerializableFunction<T, String>) (SerializableFunction<?, String>) new EventInsertId());
    }
    return out;
  }

  /**
   * BEAM_ROW: useBeamSchema(), so BigQueryIO turns Rows into protos itself (Storage API) or into
   * TableRows (streaming inserts), and creates the table from the Row schema (BigQueryTypesTest:
   * the same columns as ours). Except when the Row schema holds a logical type BigQueryIO 2.70
   * cannot write: the Storage API's Row converter refuses FixedBytes (an Avro fixed) and
   * BigQueryUtils.toTableRow would write its byte[].toString(). Then each Row goes back to its
   * Avro record and on as a TableRow, with our TableSchema.
   */
  private static BigQueryIO.Write<Row> beamRows(org.apache.avro.Schema rowSchema, TableSchema schema) {
    org.apache.beam.sdk.schemas.Schema beam = AvroUtils.toBeamSchema(rowSchema);
    if (bigQueryIoWritesRowsOf(beam)) return BigQueryIO.<Row>write().useBeamSchema();
    String avroJson = rowSchema.toString();
    return BigQueryIO.<Row>write().withSchema(schema).withFormatFunction(new SerializableFunction<Row, TableRow>() {
      private transient org.apache.avro.Schema avro;

      @Override
      public TableRow apply(Row row) {
        if (avro == null) avro = new org.apache.avro.Schema.Parser().parse(avroJson);
        return BigQueryValues.toTableRow(AvroUtils.toGenericRecord(row, avro));
      }
    });
  }

  /** Whether every field is a type BigQueryIO converts faithfully: no logical type other than an enum. */
  static boolean bigQueryIoWritesRowsOf(org.apache.beam.sdk.schemas.Schema beam) {
    return beam.getFields().stream().allMatch(f -> writable(f.getType()));
  }

  private static boolean writable(FieldType t) {
    return switch (t.getTypeName()) {
      case LOGICAL_TYPE -> EnumerationType.IDENTIFIER.equals(t.getLogicalType().getIdentifier());
      case ROW -> bigQueryIoWritesRowsOf(t.getRowSchema());
      case ARRAY, ITERABLE -> writable(t.getCollectionElementType());
      case MAP -> writable(t.getMapKeyType()) && writable(t.getMapValueType());
      default -> true;
    };
  }

  /** The write of dead-letter rows (TableRows of DeadLetters.SCHEMA) with the same method and settings. */
  public static BigQueryIO.Write<TableRow> forDeadLetters(WriteSettings w, BigQueryTable table, TableSchema schema,
      boolean unbounded) {
    return configure(BigQueryIO.writeTableRows().withSchema(schema), w, table, unbounded);
  }

  /**
   * AVRO_GENERIC_RECORD: BigQueryIO writes Avro to the Storage Write API (converted to protos), but
   * streaming inserts send JSON only ("Avro output is not supported when method ==
   * STREAMING_INSERTS"), so there the records are formatted as TableRows.
   */
  private static BigQueryIO.Write<GenericRecord> avro(WriteMethod method) {
    BigQueryIO.Write<GenericRecord> w = BigQueryIO.write();
    return method == WriteMethod.STREAMING_INSERTS
        ? w.withFormatFunction(BigQueryValues::toTableRow)
        : w.withAvroFormatFunction(request -> BigQueryValues.toAvro(request.getElement(), request.getSchema()));
  }

  private static <T> BigQueryIO.Write<T> configure(BigQueryIO.Write<T> write, WriteSettings w, BigQueryTable table,
      boolean unbounded) {
    BigQueryIO.Write<T> out = write.to(table.spec())
        .withMethod(method(w.method()))
        .withCreateDisposition(CreateDisposition.CREATE_IF_NEEDED)
        .withWriteDisposition(WriteDisposition.WRITE_APPEND);
    switch (w.method()) {
      case STREAMING_INSERTS -> {
        out = out.withExtendedErrorInfo().withFailedInsertRetryPolicy(InsertRetryPolicy.retryTransientErrors());
        if (unbounded && w.autoSharding()) out = out.withAutoSharding();
      }
      case STORAGE_WRITE_API -> {
        out = out.withNumStorageWriteApiStreams(w.numStorageWriteApiStreams());
        if (unbounded) {
          if (!w.triggered()) {
            throw new IllegalArgumentException("--triggeringFrequencySec=0 (untriggered: appends per bundle, no shuffle) is "
                + "for the local stores; BigQueryIO's Storage Write API needs a triggering frequency on an unbounded input");
          }
          out = out.withTriggeringFrequency(Duration.millis(Math.round(w.triggeringFrequencySec() * 1000)));
          if (w.autoSharding()) out = out.withAutoSharding();
        }
      }
      case STORAGE_API_AT_LEAST_ONCE -> { } // no shuffle, no batches: nothing to shard or trigger
    }
    if (w.method() != WriteMethod.STREAMING_INSERTS) {
      // A column the rows do not carry gets the table's default (run --cloud=gcp's sl_write_time:
      // CURRENT_TIMESTAMP(), the row's arrival, from which latency is read); the Storage Write API
      // writes NULL there otherwise. Only that API takes the setting.
      out = out.withDefaultMissingValueInterpretation(AppendRowsRequest.MissingValueInterpretation.DEFAULT_VALUE);
    }
    return out;
  }

  public static BigQueryIO.Write.Method method(WriteMethod m) {
    return switch (m) {
      case STREAMING_INSERTS -> BigQueryIO.Write.Method.STREAMING_INSERTS;
      case STORAGE_WRITE_API -> BigQueryIO.Write.Method.STORAGE_WRITE_API;
      case STORAGE_API_AT_LEAST_ONCE -> BigQueryIO.Write.Method.STORAGE_API_AT_LEAST_ONCE;
    };
  }

  /**
   * The flags BigQueryIO reads from its pipeline options rather than from the transform. The
   * Storage Write API's streams and triggering frequency are set on the transform (above) and, to
   * the same values, on its documented option fallbacks, so a Dataflow job shows them among its
   * options.
   */
  public static void configureOptions(BigQueryOptions o, WriteSettings w) {
    if (w.method() == WriteMethod.STORAGE_WRITE_API) {
      o.setNumStorageWriteApiStreams(w.numStorageWriteApiStreams());
      double f = w.triggeringFrequencySec();
      if (f >= 1 && f == Math.rint(f)) o.setStorageWriteApiTriggeringFrequencySec((int) f); // whole seconds only
    }
    o.setNumStreamingKeys(w.numStreamingKeys());
    o.setMaxStreamingRowsToBatch((long) w.maxStreamingRowsToBatch());
    o.setMaxStreamingBatchSize(w.maxStreamingBatchSize());
    o.setUseStorageApiConnectionPool(w.useConnectionPool());
    if (w.useConnectionPool()) {
      o.setMinConnectionPoolConnections(w.connectionPoolSize());
      o.setMaxConnectionPoolConnections(w.connectionPoolSize());
    }
  }
}
