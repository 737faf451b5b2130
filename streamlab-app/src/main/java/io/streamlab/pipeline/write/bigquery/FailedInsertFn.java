package io.streamlab.pipeline.write.bigquery;

import com.google.api.services.bigquery.model.TableRow;
import io.streamlab.formats.EventHeaders;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.schema.SystemColumns;
import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryInsertError;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryStorageApiInsertError;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows BigQuery refused -> dead letters (stage WRITE) with BigQuery's error as the cause and the
 * row's JSON as the original bytes. The event identity is read back from the row's system columns,
 * so verification still finds every sequence.
 */
abstract class FailedInsertFn<T> extends DoFn<T, GenericRecord> {
  /** STREAMING_INSERTS, with extended error info. */
  static final class Streaming extends FailedInsertFn<BigQueryInsertError> {
    @ProcessElement
    public void process(@Element BigQueryInsertError e, OutputReceiver<GenericRecord> out) {
      out.output(deadLetter(e.getRow(), String.valueOf(e.getError())));
    }
  }

  /** STORAGE_WRITE_API and STORAGE_API_AT_LEAST_ONCE. */
  static final class StorageApi extends FailedInsertFn<BigQueryStorageApiInsertError> {
    @ProcessElement
    public void process(@Element BigQueryStorageApiInsertError e, OutputReceiver<GenericRecord> out) {
      out.output(deadLetter(e.getRow(), e.getErrorMessage()));
    }
  }

  /** The last resort for dead letters BigQuery refused. */
  static final class Log<E> extends DoFn<E, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(Log.class);

    @ProcessElement
    public void process(@Element E e) {
      String text = e instanceof BigQueryInsertError i ? i.getRow() + ": " + i.getError() : String.valueOf(e);
      LOG.error("BigQuery refused a dead letter, which is only in this log: {}", text);
    }
  }

  static GenericRecord deadLetter(TableRow row, String error) {
    IngestMetrics.get().recordFailed(DeadLetters.Stage.WRITE);
    EventHeaders.Stamp stamp = stamp(row);
    return DeadLetters.of(DeadLetters.Stage.WRITE, new InsertRefused(error), stamp, null,
        String.valueOf(row).getBytes(StandardCharsets.UTF_8));
  }

  /** The row's identity, or null if the row lacks it (then the dead letter says "unknown"). */
  static EventHeaders.Stamp stamp(TableRow row) {
    try {
      return new EventHeaders.Stamp(
          (int) number(row.get(SystemColumns.PRODUCER_ID)),
          number(row.get(SystemColumns.SEQUENCE)),
          number(row.get(SystemColumns.SEND_TIME_MICROS)));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** TableRow numbers arrive as Integer, Long or (INT64 in JSON) String. */
  private static long number(Object v) {
    return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
  }

  /** BigQuery's answer as the dead letter's error; no stack: the cause is BigQuery's message. */
  static final class InsertRefused extends RuntimeException {
    InsertRefused(String message) {
      super("BigQuery refused the row: " + message, null, false, false);
    }
  }
}
