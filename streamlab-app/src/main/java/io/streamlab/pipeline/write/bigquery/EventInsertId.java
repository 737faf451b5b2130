package io.streamlab.pipeline.write.bigquery;

import com.google.api.services.bigquery.model.TableRow;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;

/**
 * STREAMING_INSERTS' insert id of a row: its event identity ("producer:sequence"), whatever the
 * element type, instead of BigQueryIO's random one. BigQuery's best-effort dedup then also drops
 * a row the pipeline replays (a restart from the last checkpoint), not only a retried request,
 * as the other stores' insert-id window does (InsertIds).
 */
final class EventInsertId implements SerializableFunction<Object, String> {
  @Override
  public String apply(Object element) {
    Object producer, sequence;
    if (element instanceof TableRow r) {
      producer = r.get(SystemColumns.PRODUCER_ID);
      sequence = r.get(SystemColumns.SEQUENCE);
    } else if (element instanceof Row r) {
      producer = r.getValue(SystemColumns.PRODUCER_ID);
      sequence = r.getValue(SystemColumns.SEQUENCE);
    } else {
      GenericRecord r = (GenericRecord) element;
      producer = r.get(SystemColumns.PRODUCER_ID);
      sequence = r.get(SystemColumns.SEQUENCE);
    }
    return producer + ":" + sequence;
  }
}
