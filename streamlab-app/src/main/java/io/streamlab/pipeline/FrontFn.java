package io.streamlab.pipeline;

import io.streamlab.formats.Compression;
import io.streamlab.formats.Envelope;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.EventKey;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.metrics.Clock;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.postgres.CopyRow;
import io.streamlab.store.postgres.ThriftCopyRows;
import io.streamlab.udf.EventFunction;
import io.streamlab.udf.IdentityFunction;
import io.streamlab.udf.UdfLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;

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
 * <p>Identity: a streamlab record key ({@link EventKey}, what the generator writes to Kafka), else
 * streamlab's headers (sl-pid, sl-seq, sl-ts: envelopes, Pub/Sub attributes, other producers); a
 * message with neither (a user's own topic) is identified by its partition and offset, with the
 * record's timestamp as send time ({@link EventHeaders.Stamp#ofOffset}); a message whose key or
 * headers claim an identity but are malformed is a dead letter under that offset identity.
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
  private final boolean storeRows;
  private transient Schema eventSchema;
  private transient PayloadCodec codec;
  private transient EventFunction udf;
  /** No user function: events are decoded into their table records directly ({@link PayloadCodec#decodeAs}). */
  private transient boolean identityUdf;
  private transient Schema tableSchema;
  /** formatToStore STORE_ROW: events straight into their PostgreSQL COPY rows; null: into table records. */
  private transient ThriftCopyRows copyRows;
  /** This instance's counts, added to the process's {@link IngestMetrics} by {@link #flushCounts}. */
  private transient IngestMetrics.Tally readStage, unbatchStage, decodeStage, udfStage;
  private transient long eventsRead;
  private transient DeadLetters.Traces traces;

  /** @param storeRows events without a UDF become {@link CopyRow}s (formatToStore STORE_ROW; Thrift only) */
  FrontFn(Schema eventSchema, TransportFormat format, Decoding decoding, boolean storeRows) {
    this.eventSchemaJson = eventSchema.toString();
    this.storeRows = storeRows;
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
    identityUdf = udf instanceof IdentityFunction;
    tableSchema = SystemColumns.tableRecordSchema(eventSchema);
    if (storeRows && identityUdf && format == TransportFormat.THRIFT) copyRows = ThriftCopyRows.forEvent(eventSchema, codec);
    readStage = IngestMetrics.get().stage(Stage.READ).tally();
    unbatchStage = IngestMetrics.get().stage(Stage.UNBATCH).tally();
    decodeStage = IngestMetrics.get().stage(Stage.DECODE).tally();
    udfStage = IngestMetrics.get().stage(Stage.UDF).tally();
    traces = new DeadLetters.Traces();
  }

  /**
   * The identity of a message without streamlab's headers, or of one whose headers cannot be read:
   * its partition and offset ({@link EventHeaders.Stamp#ofOffset}). Built only where needed, not
   * per message: most messages carry their identity in their headers.
   */
  private static EventHeaders.Stamp offsetStamp(KafkaRecord<byte[], byte[]> m) {
    return EventHeaders.Stamp.ofOffset(m.getPartition(), m.getOffset(), m.getTimestamp());
  }

  /** Where a message was read, and its key and headers as text: built only for a dead letter. */
  private static String describe(KafkaRecord<byte[], byte[]> m) {
    StringBuilder s = new StringBuilder();
    for (String part : new String[] {EventKey.describe(key(m)), EventHeaders.describe(m.getHeaders())}) {
      if (!part.isEmpty()) s.append(part).append(", ");
    }
    return s.append("kafka=").append(m.getTopic()).append('/').append(m.getPartition()).append('@').append(m.getOffset()).toString();
  }

  private static byte[] key(KafkaRecord<byte[], byte[]> m) {
    return m.getKV().getKey();
  }

  @ProcessElement
  public void process(@Element KafkaRecord<byte[], byte[]> m, MultiOutputReceiver out) {
    byte[] value = m.getKV().getValue() == null ? new byte[0] : m.getKV().getValue();
    readStage.record(1, value.length, 0);
    Compression compression;
    try {
      compression = Envelope.compressionOf(m.getHeaders());
    } catch (Throwable e) {
      rethrowIfFatal(e);
      unreadableEnvelope(m, 0, e, value, out);
      return;
    }
    if (value.length > decoding.maxMessageBytes()) {
      IllegalArgumentException e = new IllegalArgumentException("message of " + value.length
          + " bytes exceeds the limit of " + decoding.maxMessageBytes() + " bytes (--maxMessageBytes); at most the first "
          + MAX_STORED_BYTES + " bytes are kept");
      byte[] kept = storedPart(value);
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
        fail(DeadLetters.Stage.DECODE, e, offsetStamp(m), m, value, out);
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
            e.stamp(), m, storedPart(e.payload()), out);
      } else {
        event(e.stamp(), e.payload(), m, out);
      }
    }
    if (broke != null) unreadableEnvelope(m, elements.size(), broke, value, out);
  }

  /** What a dead letter keeps of an oversize message or event: its first bytes, none added. */
  private static byte[] storedPart(byte[] bytes) {
    return Arrays.copyOf(bytes, Math.min(bytes.length, MAX_STORED_BYTES));
  }

  @FinishBundle
  public void finishBundle() {
    flushCounts();
  }

  /** This instance's counts into the process's metrics: at a bundle's end, and within one (see {@link IngestMetrics.Tally}). */
  private void flushCounts() {
    IngestMetrics.get().recordEventsRead(eventsRead);
    eventsRead = 0;
    readStage.flush();
    unbatchStage.flush();
    decodeStage.flush();
    udfStage.flush();
  }

  /** Decode -> UDF -> table record, for one event. */
  private void event(EventHeaders.Stamp stamp, byte[] payload, KafkaRecord<byte[], byte[]> m, MultiOutputReceiver out) {
    eventsRead++;
    long start = System.nanoTime();
    if (copyRows != null) {
      // null: not the layout Thrift's writer gives, or not valid; decoded below, which says what is wrong, if anything
      CopyRow row = copyRows.row(payload, stamp.producerId(), stamp.sequence(), stamp.sendTimeMicros());
      if (row != null) {
        long done = System.nanoTime();
        udfStage.record(1, 0, 0, 1, Clock.micros(done) - countDecoded(start, done, payload.length, stamp));
        if (udfStage.flushDue(done)) flushCounts();
        out.get(ROWS).output(row);
        return;
      }
    }
    GenericRecord event;
    try {
      // Without a UDF the event is decoded straight into its table record (the event's fields
      // first, the system fields after them, set below): no second record to copy it into.
      event = identityUdf ? codec.decodeAs(payload, tableSchema) : codec.decode(payload);
    } catch (Throwable e) {
      rethrowIfFatal(e);
      fail(DeadLetters.Stage.DECODE, e, stamp, m, payload, out);
      return;
    }
    long decoded = System.nanoTime();
    long sent = countDecoded(start, decoded, payload.length, stamp);
    GenericRecord row;
    try {
      if (identityUdf) {
        row = SystemColumns.stamp((GenericData.Record) event, stamp.producerId(), stamp.sequence(), stamp.sendTimeMicros());
      } else {
        row = applyUdf(event, stamp);
      }
    } catch (Throwable e) {
      rethrowIfFatal(e);
      fail(DeadLetters.Stage.UDF, e, stamp, m, payload, out);
      return;
    }
    long done = System.nanoTime();
    udfStage.record(1, 0, done - decoded, 1, Clock.micros(done) - sent);
    if (udfStage.flushDue(done)) flushCounts();
    out.get(ROWS).output(row);
  }

  /**
   * Counts an event decoded from {@code start} to {@code decoded} in the read and decode stages;
   * returns its send time. Ages come from the clock readings taken for wall time anyway: no extra
   * clock read per event.
   */
  private long countDecoded(long start, long decoded, int bytes, EventHeaders.Stamp stamp) {
    long sent = stamp.sendTimeMicros();
    readStage.age(1, Clock.micros(start) - sent);
    decodeStage.record(1, bytes, decoded - start, 1, Clock.micros(decoded) - sent);
    return sent;
  }

  /** The user's function on the event, checked, as a table record. */
  private GenericRecord applyUdf(GenericRecord event, EventHeaders.Stamp stamp) throws Exception {
    GenericRecord result = udf.apply(event);
    if (result == null) throw new IllegalStateException("the UDF returned null");
    if (result.getSchema() != eventSchema && !result.getSchema().equals(eventSchema)) {
      throw new IllegalStateException("the UDF returned a " + result.getSchema().getFullName()
          + " record of another schema than the event's " + eventSchema.getFullName());
    }
    return SystemColumns.tableRecord(tableSchema, result, stamp.producerId(), stamp.sequence(), stamp.sendTimeMicros());
  }

  /**
   * The envelope (or its rest, after {@code delivered} good events) cannot be read. Its headers
   * still say which producer and sequences it held, so one dead letter per missing event keeps
   * verification exact; the message bytes go with the first of them only. An envelope whose
   * headers announce more than --maxEnvelopeEvents events, or whose identity headers cannot be
   * read, is one dead letter.
   */
  private void unreadableEnvelope(KafkaRecord<byte[], byte[]> m, int delivered, Throwable e, byte[] value, MultiOutputReceiver out) {
    EventHeaders.Stamp first;
    try {
      first = claimedIdentity(m);
    } catch (RuntimeException noHeaders) {
      first = null;
    }
    int count = Envelope.declaredCount(m.getHeaders());
    if (count > decoding.maxEnvelopeEvents()) {
      e = new IllegalArgumentException("header " + Envelope.COUNT_HEADER + " announces " + count
          + " events, beyond the limit of " + decoding.maxEnvelopeEvents() + " (--maxEnvelopeEvents): "
          + "one dead letter for the whole envelope; " + e, e);
    }
    if (first == null || count <= delivered || count > decoding.maxEnvelopeEvents()) {
      eventsRead++;
      fail(DeadLetters.Stage.DECOMPRESS, e, delivered == 0 && first != null ? first : offsetStamp(m), m, value, out);
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

  /** The identity the message's key, else its headers, claim; null when they claim none; malformed ones throw. */
  private static EventHeaders.Stamp claimedIdentity(KafkaRecord<byte[], byte[]> m) {
    if (EventKey.marks(key(m))) return EventKey.read(key(m));
    return EventHeaders.absent(m.getHeaders()) ? null : EventHeaders.read(m.getHeaders());
  }

  /** The claimed identity, or the offset identity when there is none. */
  private static EventHeaders.Stamp identity(KafkaRecord<byte[], byte[]> m) {
    EventHeaders.Stamp claimed = claimedIdentity(m);
    return claimed != null ? claimed : offsetStamp(m);
  }

  /** The identity of a plain message, or its offset identity when its headers cannot give one. */
  private static EventHeaders.Stamp plainIdentityOrOffset(KafkaRecord<byte[], byte[]> m) {
    try {
      return identity(m);
    } catch (RuntimeException e) {
      return offsetStamp(m);
    }
  }

  /** The JVM's own errors go on up (no dead letter can be written after them); a stack overflow is unwound by now. */
  private static void rethrowIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) throw (VirtualMachineError) t;
  }

  private void fail(DeadLetters.Stage stage, Throwable e, EventHeaders.Stamp stamp, KafkaRecord<byte[], byte[]> m, byte[] bytes,
      MultiOutputReceiver out) {
    IngestMetrics.get().recordFailed(stage, stamp == null ? null : stamp.eventId());
    out.get(FAILED).output(DeadLetters.of(stage, e, stamp, describe(m), bytes, traces.cause(stage, e, stamp)));
  }
}
