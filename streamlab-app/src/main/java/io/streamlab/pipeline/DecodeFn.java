package io.streamlab.pipeline;

import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.kafka.common.header.Headers;

/**
 * Broker message -> table record (event fields + system fields from the headers). An event that
 * cannot be decoded goes to the dead-letter output with its bytes, never dropped, never fatal.
 */
class DecodeFn extends DoFn<KafkaRecord<byte[], byte[]>, GenericRecord> {
  static final TupleTag<GenericRecord> ROWS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};

  private final String eventSchemaJson;
  private final TransportFormat format;
  private transient PayloadCodec codec;
  private transient Schema tableSchema;
  private transient int eventFieldCount;
  private transient int producerPos, sequencePos, sendTimePos;

  DecodeFn(Schema eventSchema, TransportFormat format) {
    this.eventSchemaJson = eventSchema.toString();
    this.format = format;
  }

  @Setup
  public void setup() {
    Schema event = new Schema.Parser().parse(eventSchemaJson);
    codec = format.codec(event);
    tableSchema = SystemColumns.tableRecordSchema(event);
    eventFieldCount = event.getFields().size();
    producerPos = tableSchema.getField(SystemColumns.PRODUCER_ID).pos();
    sequencePos = tableSchema.getField(SystemColumns.SEQUENCE).pos();
    sendTimePos = tableSchema.getField(SystemColumns.SEND_TIME_MICROS).pos();
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> message, MultiOutputReceiver out) {
    byte[] payload = message.getKV().getValue();
    Headers headers = message.getHeaders();
    IngestMetrics.get().recordRead(payload == null ? 0 : payload.length);
    EventHeaders.Stamp stamp = null;
    try {
      long start = System.nanoTime();
      stamp = EventHeaders.read(headers);
      GenericRecord row = toTableRecord(codec.decode(payload), stamp);
      IngestMetrics.get().stage(Stage.DECODE).record(1, payload.length, System.nanoTime() - start);
      out.get(ROWS).output(row);
    } catch (RuntimeException e) {
      IngestMetrics.get().recordFailed(DeadLetters.Stage.DECODE);
      out.get(FAILED).output(DeadLetters.of(DeadLetters.Stage.DECODE, e, stamp, headers, payload));
    }
  }

  private GenericRecord toTableRecord(GenericRecord event, EventHeaders.Stamp stamp) {
    GenericData.Record row = new GenericData.Record(tableSchema);
    for (int i = 0; i < eventFieldCount; i++) row.put(i, event.get(i)); // same positions by construction
    row.put(producerPos, stamp.producerId());
    row.put(sequencePos, stamp.sequence());
    row.put(sendTimePos, stamp.sendTimeMicros());
    return row;
  }
}
