package io.streamlab.pipeline.write;

import io.streamlab.formats.EventHeaders;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.schema.AvroJson;
import io.streamlab.schema.SystemColumns;
import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericRecord;

/** Dead letters of the write stage: the row as JSON stands in for the original bytes. */
public final class WriteDeadLetters {
  private WriteDeadLetters() {}

  public static GenericRecord of(DeadLetters.Stage stage, Throwable error, GenericRecord row) {
    EventHeaders.Stamp stamp = new EventHeaders.Stamp((Integer) row.get(SystemColumns.PRODUCER_ID),
        (Long) row.get(SystemColumns.SEQUENCE), (Long) row.get(SystemColumns.SEND_TIME_MICROS));
    IngestMetrics.get().recordFailed(stage, stamp.eventId()); // once per event, however often replayed
    byte[] bytes;
    try {
      bytes = AvroJson.toJson(row, row.getSchema()).getBytes(StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      bytes = String.valueOf(row).getBytes(StandardCharsets.UTF_8);
    }
    return DeadLetters.of(stage, error, stamp, null, bytes);
  }

  /** An element that could not even be turned back into a record: its text is all we have. */
  public static GenericRecord ofElement(DeadLetters.Stage stage, Throwable error, Object element) {
    IngestMetrics.get().recordFailed(stage);
    return DeadLetters.of(stage, error, null, null, String.valueOf(element).getBytes(StandardCharsets.UTF_8));
  }
}
