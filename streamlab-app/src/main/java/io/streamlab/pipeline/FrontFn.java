package io.streamlab.pipeline;

import io.streamlab.formats.Compression;
import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SystemColumns;
import io.streamlab.udf.EventFunction;
import io.streamlab.udf.UdfLoader;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.kafka.common.header.Headers;

/**
 * One broker message -> its events as table records. A plain message is one event (identity in
 * its headers); an {@link Envelope} is decompressed and unbatched first. Each event is then
 * decoded and passed through the UDF. A failure at any stage becomes a dead-letter record of that
 * stage with the bytes it failed on; the good events around it go on.
 */
class FrontFn extends DoFn<KafkaRecord<byte[], byte[]>, GenericRecord> {
  static final TupleTag<GenericRecord> ROWS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};
  /** Dead letters written for the events of one unreadable envelope at most (guards a bad count header). */
  private static final int MAX_DEAD_LETTERS_PER_ENVELOPE = 1_000_000;

  private final String eventSchemaJson;
  private final TransportFormat format;
  private final UdfLoader udfLoader;
  private transient Schema eventSchema;
  private transient PayloadCodec codec;
  private transient EventFunction udf;
  private transient Schema tableSchema;
  private transient IngestMetrics.StageCounter unbatchStage, decodeStage, udfStage;
  /** Time spent in {@link #event} during the current unbatch call, so unbatching is timed alone. */
  private transient long eventNanos;

  FrontFn(Schema eventSchema, TransportFormat format, UdfLoader udf) {
    this.eventSchemaJson = eventSchema.toString();
    this.format = format;
    this.udfLoader = udf;
  }

  @Setup
  public void setup() throws Exception {
    eventSchema = new Schema.Parser().parse(eventSchemaJson);
    codec = format.codec(eventSchema);
    udf = udfLoader.newInstance();
    udf.open(eventSchema);
    tableSchema = SystemColumns.tableRecordSchema(eventSchema);
    unbatchStage = IngestMetrics.get().stage(Stage.UNBATCH);
    decodeStage = IngestMetrics.get().stage(Stage.DECODE);
    udfStage = IngestMetrics.get().stage(Stage.UDF);
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> message, MultiOutputReceiver out) {
    byte[] value = message.getKV().getValue();
    Headers headers = message.getHeaders();
    IngestMetrics.get().recordRead(value == null ? 0 : value.length);
    Compression compression;
    try {
      compression = Envelope.compressionOf(headers);
    } catch (IllegalArgumentException e) {
      unreadableEnvelope(0, e, headers, value, out);
      return;
    }
    if (compression == null) {
      EventHeaders.Stamp stamp;
      try {
        stamp = EventHeaders.read(headers);
      } catch (IllegalArgumentException e) {
        fail(DeadLetters.Stage.DECODE, e, null, headers, value, out);
        return;
      }
      event(stamp, value, headers, out);
      return;
    }
    long start = System.nanoTime();
    eventNanos = 0;
    int[] events = {0};
    try {
      Envelope.unbatch(value == null ? new byte[0] : value, compression, e -> {
        events[0]++;
        long t = System.nanoTime();
        event(e.stamp(), e.payload(), headers, out);
        eventNanos += System.nanoTime() - t;
      });
      unbatchStage.record(events[0], value == null ? 0 : value.length, System.nanoTime() - start - eventNanos);
    } catch (Envelope.UnbatchException e) {
      unreadableEnvelope(e.delivered(), e, headers, value, out);
    } catch (IllegalArgumentException e) { // the body did not decompress
      unreadableEnvelope(0, e, headers, value, out);
    }
  }

  /** Decode -> UDF -> table record, for one event. */
  private void event(EventHeaders.Stamp stamp, byte[] payload, Headers headers, MultiOutputReceiver out) {
    IngestMetrics.get().recordEvent();
    GenericRecord event;
    long start = System.nanoTime();
    try {
      event = codec.decode(payload);
      long decoded = System.nanoTime();
      decodeStage.record(1, payload.length, decoded - start);
      start = decoded;
    } catch (RuntimeException e) {
      fail(DeadLetters.Stage.DECODE, e, stamp, headers, payload, out);
      return;
    }
    GenericRecord result;
    try {
      result = udf.apply(event);
      if (result == null) throw new IllegalStateException("the UDF returned null");
      if (result.getSchema() != eventSchema && !result.getSchema().equals(eventSchema)) {
        throw new IllegalStateException("the UDF returned a " + result.getSchema().getFullName()
            + " record of another schema than the event's " + eventSchema.getFullName());
      }
    } catch (Exception e) {
      fail(DeadLetters.Stage.UDF, e, stamp, headers, payload, out);
      return;
    }
    udfStage.record(1, 0, System.nanoTime() - start);
    out.get(ROWS).output(SystemColumns.tableRecord(tableSchema, result, stamp.producerId(), stamp.sequence(),
        stamp.sendTimeMicros()));
  }

  /**
   * The envelope (or its rest, after {@code delivered} good events) cannot be read. Its headers
   * still say which producer and sequences it held, so one dead letter per missing event keeps
   * verification exact; the message bytes go with the first of them only.
   */
  private void unreadableEnvelope(int delivered, Exception e, Headers headers, byte[] value, MultiOutputReceiver out) {
    EventHeaders.Stamp first;
    try {
      first = EventHeaders.read(headers);
    } catch (IllegalArgumentException noHeaders) {
      first = null;
    }
    int count = Envelope.declaredCount(headers);
    if (first == null || count <= delivered || count > MAX_DEAD_LETTERS_PER_ENVELOPE) {
      fail(DeadLetters.Stage.DECOMPRESS, e, first, headers, value, out);
      return;
    }
    for (int i = delivered; i < count; i++) {
      IngestMetrics.get().recordEvent();
      EventHeaders.Stamp stamp = new EventHeaders.Stamp(first.producerId(), first.sequence() + i, first.sendTimeMicros());
      Exception reported = i == delivered ? e
          : new IllegalArgumentException("event " + i + " of an unreadable envelope (its bytes are on event "
              + first.producerId() + "-" + (first.sequence() + delivered) + "): " + e.getMessage());
      fail(DeadLetters.Stage.DECOMPRESS, reported, stamp, headers, i == delivered ? value : null, out);
    }
  }

  private static void fail(DeadLetters.Stage stage, Exception e, EventHeaders.Stamp stamp, Headers headers,
      byte[] bytes, MultiOutputReceiver out) {
    IngestMetrics.get().recordFailed(stage);
    out.get(FAILED).output(DeadLetters.of(stage, e, stamp, headers, bytes));
  }


}
