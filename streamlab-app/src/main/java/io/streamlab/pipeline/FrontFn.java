package io.streamlab.pipeline;

import io.streamlab.formats.Compression;
import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.metrics.Clock;
import io.streamlab.schema.SystemColumns;
import io.streamlab.udf.EventFunction;
import io.streamlab.udf.UdfLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.kafka.common.header.Headers;

/**
 * One broker message -> its events as table records. A plain message is one event; an
 * {@link Envelope} is decompressed and unbatched first. Each event is then decoded and passed
 * through the UDF. A failure at any stage becomes a dead-letter record of that stage with the
 * bytes it failed on; the good events around it go on.
 *
 * <p>No single message can stop ingestion: every Throwable of unbatch, decompress, decode and the
 * UDF is caught (a StackOverflowError too: a UDF's runaway recursion is unwound by then), except
 * the JVM's own errors (out of memory, internal errors), which no dead letter could survive. What
 * would otherwise overflow the stack or the heap is bounded before it can ({@link Decoding}'s
 * limits). Outputs are never inside those try blocks: a failure of a stage chained after this one
 * (a writer) must fail the bundle, not be filed as bad input.
 *
 * <p>Identity: streamlab's headers (sl-pid, sl-seq, sl-ts) when the message has them; a message
 * with none of them (a user's own topic) is identified by its partition and offset, with the
 * record's timestamp as send time ({@link EventHeaders.Stamp#ofOffset}); a message whose headers
 * are there but malformed is a dead letter under that offset identity.
 */
class FrontFn extends DoFn<KafkaRecord<byte[], byte[]>, GenericRecord> {
  static final TupleTag<GenericRecord> ROWS = new TupleTag<>() {};
  static final TupleTag<GenericRecord> FAILED = new TupleTag<>() {};
  /** Bytes of an oversize message kept in its dead letter (the rest would only bloat the table). */
  static final int MAX_STORED_BYTES = 64 << 10;

  private final String eventSchemaJson;
  private final TransportFormat format;
  private final Decoding decoding;
  private final UdfLoader udfLoader;
  private transient Schema eventSchema;
  private transient PayloadCodec codec;
  private transient EventFunction udf;
  private transient Schema tableSchema;
  /** This instance's counts, added to the process's {@link IngestMetrics} at the end of each bundle. */
  private transient IngestMetrics.Tally readStage, unbatchStage, decodeStage, udfStage;
  private transient long messagesRead, bytesRead, eventsRead;
  private transient DeadLetters.Traces traces;

  FrontFn(Schema eventSchema, TransportFormat format, Decoding decoding) {
    this.eventSchemaJson = eventSchema.toString();
    this.format = format;
    this.decoding = decoding;
    this.udfLoader = decoding.udf();
  }

  @Setup
  public void setup() throws Exception {
    eventSchema = new Schema.Parser().parse(eventSchemaJson);
    codec = format.codec(eventSchema, decoding.maxNestingDepth());
    udf = udfLoader.newInstance();
    udf.open(eventSchema);
    tableSchema = SystemColumns.tableRecordSchema(eventSchema);
    readStage = IngestMetrics.get().stage(Stage.READ).tally();
    unbatchStage = IngestMetrics.get().stage(Stage.UNBATCH).tally();
    decodeStage = IngestMetrics.get().stage(Stage.DECODE).tally();
    udfStage = IngestMetrics.get().stage(Stage.UDF).tally();
    traces = new DeadLetters.Traces();
  }

  /** The message being processed: where it was read, and its headers as text for dead letters. */
  private record Message(Headers headers, EventHeaders.Stamp offsetStamp, String topic, int partition, long offset) {
    /** Built only for a dead letter: every message passes here, few fail. */
    String describe() {
      String where = "kafka=" + topic + "/" + partition + "@" + offset;
      String h = EventHeaders.describe(headers);
      return h.isEmpty() ? where : h + ", " + where;
    }
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> record, MultiOutputReceiver out) {
    byte[] value = record.getKV().getValue() == null ? new byte[0] : record.getKV().getValue();
    Message m = new Message(record.getHeaders(),
        EventHeaders.Stamp.ofOffset(record.getPartition(), record.getOffset(), record.getTimestamp()),
        record.getTopic(), record.getPartition(), record.getOffset());
    messagesRead++;
    bytesRead += value.length;
    Compression compression;
    try {
      compression = Envelope.compressionOf(m.headers());
    } catch (Throwable e) {
      rethrowIfFatal(e);
      unreadableEnvelope(m, 0, e, value, out);
      return;
    }
    if (value.length > decoding.maxMessageBytes()) {
      IllegalArgumentException e = new IllegalArgumentException("message of " + value.length
          + " bytes exceeds the limit of " + decoding.maxMessageBytes() + " bytes (--maxMessageBytes); the first "
          + MAX_STORED_BYTES + " bytes are kept");
      byte[] kept = Arrays.copyOf(value, MAX_STORED_BYTES);
      if (compression != null) unreadableEnvelope(m, 0, e, kept, out);
      else fail(DeadLetters.Stage.DECODE, e, plainIdentityOrOffset(m), m, kept, out);
      return;
    }
    if (compression == null) {
      EventHeaders.Stamp stamp;
      try {
        stamp = identity(m);
      } catch (Throwable e) {
        rethrowIfFatal(e);
        fail(DeadLetters.Stage.DECODE, e, m.offsetStamp(), m, value, out);
        return;
      }
      event(stamp, value, m, out);
      return;
    }
    // The envelope is opened completely before any of its events goes on, so that a failure
    // downstream of this DoFn cannot surface inside the unbatching and be filed as bad input.
    List<Envelope.Element> elements = new ArrayList<>();
    Throwable broke = null;
    long start = System.nanoTime();
    try {
      Envelope.unbatch(value, compression, decoding.maxDecompressedBytes(), decoding.maxEnvelopeEvents(), elements::add);
    } catch (Throwable e) {
      rethrowIfFatal(e);
      broke = e;
    }
    unbatchStage.record(elements.size(), value.length, System.nanoTime() - start);
    for (Envelope.Element e : elements) {
      if (e.payload().length > decoding.maxMessageBytes()) {
        eventsRead++;
        fail(DeadLetters.Stage.DECODE, new IllegalArgumentException("event of " + e.payload().length
            + " bytes exceeds the limit of " + decoding.maxMessageBytes() + " bytes (--maxMessageBytes)"),
            e.stamp(), m, Arrays.copyOf(e.payload(), MAX_STORED_BYTES), out);
      } else {
        event(e.stamp(), e.payload(), m, out);
      }
    }
    if (broke != null) unreadableEnvelope(m, elements.size(), broke, value, out);
  }

  /** The bundle's counts into the process's metrics (once per bundle: see {@link IngestMetrics.Tally}). */
  @FinishBundle
  public void finishBundle() {
    IngestMetrics.get().recordRead(messagesRead, bytesRead, eventsRead);
    messagesRead = bytesRead = eventsRead = 0;
    readStage.flush();
    unbatchStage.flush();
    decodeStage.flush();
    udfStage.flush();
  }

  /** Decode -> UDF -> table record, for one event. */
  private void event(EventHeaders.Stamp stamp, byte[] payload, Message m, MultiOutputReceiver out) {
    eventsRead++;
    long start = System.nanoTime();
    GenericRecord event;
    try {
      event = codec.decode(payload);
    } catch (Throwable e) {
      rethrowIfFatal(e);
      fail(DeadLetters.Stage.DECODE, e, stamp, m, payload, out);
      return;
    }
    long decoded = System.nanoTime();
    // ages from the clock readings taken for wall time anyway: no extra clock read per event
    long sent = stamp.sendTimeMicros();
    readStage.age(1, Clock.micros(start) - sent);
    decodeStage.record(1, payload.length, decoded - start, 1, Clock.micros(decoded) - sent);
    GenericRecord row;
    try {
      GenericRecord result = udf.apply(event);
      if (result == null) throw new IllegalStateException("the UDF returned null");
      if (result.getSchema() != eventSchema && !result.getSchema().equals(eventSchema)) {
        throw new IllegalStateException("the UDF returned a " + result.getSchema().getFullName()
            + " record of another schema than the event's " + eventSchema.getFullName());
      }
      row = SystemColumns.tableRecord(tableSchema, result, stamp.producerId(), stamp.sequence(), stamp.sendTimeMicros());
    } catch (Throwable e) {
      rethrowIfFatal(e);
      fail(DeadLetters.Stage.UDF, e, stamp, m, payload, out);
      return;
    }
    long done = System.nanoTime();
    udfStage.record(1, 0, done - decoded, 1, Clock.micros(done) - sent);
    out.get(ROWS).output(row);
  }

  /**
   * The envelope (or its rest, after {@code delivered} good events) cannot be read. Its headers
   * still say which producer and sequences it held, so one dead letter per missing event keeps
   * verification exact; the message bytes go with the first of them only. An envelope whose
   * headers announce more than --maxEnvelopeEvents events, or whose identity headers cannot be
   * read, is one dead letter.
   */
  private void unreadableEnvelope(Message m, int delivered, Throwable e, byte[] value, MultiOutputReceiver out) {
    EventHeaders.Stamp first;
    try {
      first = EventHeaders.absent(m.headers()) ? null : EventHeaders.read(m.headers());
    } catch (RuntimeException noHeaders) {
      first = null;
    }
    int count = Envelope.declaredCount(m.headers());
    if (count > decoding.maxEnvelopeEvents()) {
      e = new IllegalArgumentException("header " + Envelope.COUNT_HEADER + " announces " + count
          + " events, beyond the limit of " + decoding.maxEnvelopeEvents() + " (--maxEnvelopeEvents): "
          + "one dead letter for the whole envelope; " + e, e);
    }
    if (first == null || count <= delivered || count > decoding.maxEnvelopeEvents()) {
      eventsRead++;
      fail(DeadLetters.Stage.DECOMPRESS, e, delivered == 0 && first != null ? first : m.offsetStamp(), m, value, out);
      return;
    }
    for (int i = delivered; i < count; i++) {
      eventsRead++;
      EventHeaders.Stamp stamp = new EventHeaders.Stamp(first.producerId(), first.sequence() + i, first.sendTimeMicros());
      Throwable reported = i == delivered ? e
          : new IllegalArgumentException("event " + i + " of an unreadable envelope (its bytes are on event "
              + first.producerId() + "-" + (first.sequence() + delivered) + "): " + e.getMessage());
      fail(DeadLetters.Stage.DECOMPRESS, reported, stamp, m, i == delivered ? value : null, out);
    }
  }

  /** streamlab's headers, or the offset identity when there are none; malformed headers throw. */
  private static EventHeaders.Stamp identity(Message m) {
    return EventHeaders.absent(m.headers()) ? m.offsetStamp() : EventHeaders.read(m.headers());
  }

  /** The identity of a plain message, or its offset identity when its headers cannot give one. */
  private static EventHeaders.Stamp plainIdentityOrOffset(Message m) {
    try {
      return identity(m);
    } catch (RuntimeException e) {
      return m.offsetStamp();
    }
  }

  /** The JVM's own errors go on up (no dead letter can be written after them); a stack overflow is unwound by now. */
  private static void rethrowIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) throw (VirtualMachineError) t;
  }

  private void fail(DeadLetters.Stage stage, Throwable e, EventHeaders.Stamp stamp, Message m, byte[] bytes,
      MultiOutputReceiver out) {
    IngestMetrics.get().recordFailed(stage, stamp == null ? null : stamp.eventId());
    out.get(FAILED).output(DeadLetters.of(stage, e, stamp, m.describe(), bytes, traces.cause(stage, e, stamp)));
  }
}
