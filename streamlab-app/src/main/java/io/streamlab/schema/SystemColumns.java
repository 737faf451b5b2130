package io.streamlab.schema;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The columns streamlab adds to every table beside the event's own fields, so that every run can
 * count lost and duplicated rows and measure end-to-end latency from the intended send time.
 *
 * <p>The pipeline element ("table record") is the event schema plus {@link #PRODUCER_ID},
 * {@link #SEQUENCE} and {@link #SEND_TIME_MICROS}; the table store adds {@link #WRITE_TIME_MICROS}
 * itself at the moment it appends, because only the store knows when a row becomes visible.
 */
public final class SystemColumns {
  public static final String PRODUCER_ID = "sl_producer_id";
  public static final String SEQUENCE = "sl_sequence";
  /** Intended send time, epoch microseconds (from the message header, not the actual send). */
  public static final String SEND_TIME_MICROS = "sl_send_time_us";
  /** Time the store appended the row, epoch microseconds; set by the table store. */
  public static final String WRITE_TIME_MICROS = "sl_write_time_us";

  private SystemColumns() {}

  /** The event schema with the three pipeline-carried system fields appended (all non-null). */
  public static Schema tableRecordSchema(Schema event) {
    SchemaBuilder.FieldAssembler<Schema> fields =
        SchemaBuilder.record(event.getName() + "Row").namespace(event.getNamespace()).fields();
    for (Schema.Field f : event.getFields()) {
      fields = fields.name(f.name()).doc(f.doc()).type(f.schema()).noDefault();
    }
    return fields
        .name(PRODUCER_ID).type().intType().noDefault()
        .name(SEQUENCE).type().longType().noDefault()
        .name(SEND_TIME_MICROS).type().longType().noDefault()
        .endRecord();
  }

  /**
   * A table record of {@code tableSchema} (from {@link #tableRecordSchema}): the event's fields,
   * which sit at the same positions by construction, plus the system fields.
   */
  public static GenericRecord tableRecord(Schema tableSchema, GenericRecord event, int producerId, long sequence,
      long sendTimeMicros) {
    return stamp(widened(tableSchema, event), producerId, sequence, sendTimeMicros);
  }

  /**
   * A record of {@code schema}, whose leading fields are {@code event}'s (as {@link #tableRecordSchema}
   * makes them), holding the event's values; the fields after them are null.
   */
  public static GenericData.Record widened(Schema schema, GenericRecord event) {
    GenericData.Record row = new GenericData.Record(schema);
    int eventFields = event.getSchema().getFields().size();
    for (int i = 0; i < eventFields; i++) row.put(i, event.get(i));
    return row;
  }

  /**
   * Sets the system fields of a table record whose event fields are set (decoded into it
   * directly, see {@code PayloadCodec#decodeAs}, or {@link #widened}); returns it.
   */
  public static GenericData.Record stamp(GenericData.Record row, int producerId, long sequence, long sendTimeMicros) {
    int eventFields = row.getSchema().getFields().size() - 3;
    row.put(eventFields, producerId);
    row.put(eventFields + 1, sequence);
    row.put(eventFields + 2, sendTimeMicros);
    return row;
  }
}
