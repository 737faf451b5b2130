package io.streamlab.pipeline.write;

import io.streamlab.metrics.Clock;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.StoreUnavailableException;
import io.streamlab.store.TableWriter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * The one writer of every write method: buffers elements, turns them back into table records and
 * appends them in batches. A method without a shuffle gives it table records, which it converts
 * to the element of {@code formatToStore} itself ({@link Conversion}) before buffering them: one
 * step, and one runner operator, fewer per element than a conversion step of its own; a keyed
 * method gives it the elements of a request ({@link #write}). A batch ends when it holds
 * {@code maxRows} rows, when its first row is one Flink bundle time old
 * ({@link Batching#rowsOrRunnerBundleTime}), and always at the end of a bundle.
 * The Flink runner ends a bundle before every checkpoint barrier, so when a checkpoint completes
 * (and KafkaIO commits its offsets) every row read before it is in the table: a restarted
 * ingestion that resumes from the committed offsets re-reads only rows already written or not yet
 * read, never skips one. Where the bundle's batches are held in one transaction
 * ({@link Batching#commitPerBundle}), it commits at the bundle's end, before the checkpoint too.
 *
 * <p>Guarantees, by how the table and writer were opened:
 * <ul>
 *   <li>plain append (at-least-once): a retried or replayed batch writes its rows again;
 *   <li>keyed (STORAGE_WRITE_API): each append is one transaction (or part of the held one)
 *       that leaves out the rows whose (producer id, sequence) the table holds, so a retry, a
 *       replay after a crash or a restart writes nothing twice: exactly-once;
 *   <li>insert-id dedup (STREAMING_INSERTS): rows whose id was inserted recently in this process
 *       are skipped (best effort).
 * </ul>
 * An append that fails because the store is unreachable is retried as it is ({@link OutageWait}).
 * Any other failed append is retried; if it keeps failing, the rows are tried one by one and those the
 * store refuses for their content go to {@code <table>_failed} (stage WRITE); a row that fails for
 * anything else fails the bundle, and the runner replays it ({@link RowRefusals}).
 */
final class BatchAppendFn extends DoFn<GenericRecord, Void> {
  /**
   * When a batch is appended.
   *
   * @param atRunnerBundleTime also when its first row is the Flink runner's {@code maxBundleTimeMills}
   *     old (no age bound on other runners)
   * @param commitPerBundle a bundle's batches are held in one transaction committed when the bundle
   *     ends ({@link TableWriter#holdUntilCommit}), so its rows are visible only then
   * @param holdWhileBehind where the writer can hold its appends, they are held in one transaction
   *     while the reader is behind: an append whose newest row was sent {@link #BEHIND_MICROS} or
   *     more before is not committed until an append of fresher rows follows, the bundle ends, or
   *     the transaction holds {@link #MAX_HELD_ROWS} rows. A reader that keeps up commits each
   *     append, as without holding. DuckDB commits a transaction of less than a row group by
   *     copying its rows into the table's in-memory storage and its log, to be compressed again
   *     at its next checkpoint; a larger one goes to the file compressed once, its last partial
   *     row group too. So a held transaction is not committed when it reaches a row group: the
   *     rest of the bundle would then be a small transaction of its own.
   */
  record Batching(int maxRows, boolean atRunnerBundleTime, boolean commitPerBundle, boolean holdWhileBehind)
      implements Serializable {
    /** Rows a second late or more: holding them another bundle adds less than they already carry. */
    static final long BEHIND_MICROS = 1_000_000;
    /** DuckDB's row group: a transaction this large is written compressed, not copied at its commit. */
    static final int ROW_GROUP_ROWS = 122_880;
    /**
     * The most a held transaction holds: two row groups, so that a bundle that ends early still
     * has more than one, and the held batches' vectors (kept until the commit) stay bounded.
     * Flink's bundles are as long where the writers hold ({@link WriteStage#configure}).
     */
    static final int MAX_HELD_ROWS = 2 * ROW_GROUP_ROWS;

    static Batching rows(int maxRows) {
      return new Batching(maxRows, false, false, false);
    }

    /**
     * {@code maxRows}, and a batch as old as the Flink runner's bundles appended from the element
     * that finds it so, not from the runner's bundle timer. Both end a batch after one bundle time,
     * and the reader waits out the append either way; what differs is what a checkpoint costs.
     * Flink runs the bundle timer as a mailbox mail, and a mail that arrives while another runs
     * (the checkpoint trigger, during the ~75 ms append of the warehouse model) is taken only
     * after the source has emitted one more record; that record opens a bundle, which the
     * checkpoint ends at once: one more append, a whole round trip the reader then waits out
     * for a row or two (15 of the 19 checkpoint-ended bundles of a traced run of scenario 7).
     * An append started from the element's path leaves the reader between records, so Flink
     * takes the waiting checkpoint before it reads on, and the checkpoint waits at most for the
     * rest of that append, with nothing left to append. The study's pipeline has no such cost:
     * Dataflow has no checkpoint barrier, its commit of a bundle is its checkpoint.
     */
    static Batching rowsOrRunnerBundleTime(int maxRows) {
      return new Batching(maxRows, true, false, false);
    }

    /** The same batches, held in one transaction per bundle. */
    Batching committedPerBundle() {
      return new Batching(maxRows, atRunnerBundleTime, true, false);
    }

    /**
     * The same batches, held in one transaction while the reader is behind; a batch is appended
     * once its first row is {@link WriterOptions#getAppendMaxAgeMillis} old, since on Flink the
     * bundles are then longer than that ({@link WriteStage#configure}).
     */
    Batching heldWhileBehind() {
      return new Batching(maxRows, true, false, true);
    }
  }

  private static final int ATTEMPTS = 3;

  private final StoreSpec storeSpec;
  private final String table;
  private final String schemaJson;
  private final FormatToStore format;
  private final Batching batching;
  private final boolean keyed;
  private final int poolSize;
  private final boolean dedupByInsertId;
  private final boolean isDeadLetterTable;
  /** Table record -> element, for records given to {@link #process}; null: they are buffered as they are. */
  private final Conversion conversion;

  private transient Schema schema;
  private transient TableStore store;
  private transient TableWriter ownWriter;
  private transient WriterPool pool;
  private transient InsertIds insertIds;
  private transient OutageWait outage;
  private transient TableWriter deadLetterWriter;
  private transient List<Object> buffer;
  /** Dead letters of the records {@link #process} could not convert, appended with the next batch. */
  private transient List<GenericRecord> notConverted;
  private transient long firstBufferedNanos;
  /** The runner's bundle time in nanos where {@link Batching#atRunnerBundleTime}, resolved at the first bundle; 0 until then. */
  private transient long maxAgeNanos;
  private transient int producerPos, sequencePos, sendTimePos;
  /** Runs this writer's appends beside the reading thread ({@link #overlapsAppends}); null: appends run inline. */
  private transient ScheduledExecutorService appender;
  /** The append {@link #appender} is running, or null. */
  private transient Future<?> inFlight;
  /** Send times of the rows appended into the open transaction ({@link Batching#commitPerBundle}), counted when it commits. */
  private transient long[] heldSendTimes;
  private transient int heldRows;
  /**
   * Guards {@link #buffer} and {@link #notConverted} where {@link #appendIfAged} may take them on
   * the appender thread; null (no locking) elsewhere.
   */
  private transient Object bufferLock;
  /** The failure of an append {@link #appendIfAged} made, thrown on the reading thread at its next call. */
  private transient volatile Exception agedAppendFailure;

  /**
   * @param poolSize 0 = a writer of its own; else share a process-wide pool of that many
   * @param format how elements turn back into records (TABLE_ROW for JSON rows)
   * @param conversion how the records given to {@link #process} become elements; null: they are elements
   */
  BatchAppendFn(StoreSpec storeSpec, String table, Schema schema, FormatToStore format, Conversion conversion,
      Batching batching, boolean keyed, int poolSize, boolean dedupByInsertId) {
    this.storeSpec = storeSpec;
    this.table = table;
    this.schemaJson = schema.toString();
    this.format = format;
    this.conversion = conversion;
    this.batching = batching;
    this.keyed = keyed;
    this.poolSize = poolSize;
    this.dedupByInsertId = dedupByInsertId;
    this.isDeadLetterTable = schema.equals(DeadLetters.SCHEMA);
  }

  @Setup
  public void setup() throws Exception {
    schema = new Schema.Parser().parse(schemaJson);
    store = storeSpec.open();
    store.createTableIfMissing(table, schema, keyed);
    if (poolSize > 0) pool = WriterPool.of(storeSpec, table, schema, poolSize);
    else {
      ownWriter = store.openWriter(table, schema, keyed);
      if (!isDeadLetterTable) WriteStats.get().connectionOpened();
    }
    buffer = new ArrayList<>();
    notConverted = new ArrayList<>();
    if (conversion != null) conversion.setup();
    outage = new OutageWait(table);
    if (dedupByInsertId) insertIds = InsertIds.forTable(storeSpec + "/" + table);
    if (!isDeadLetterTable) {
      producerPos = schema.getField(SystemColumns.PRODUCER_ID).pos();
      sequencePos = schema.getField(SystemColumns.SEQUENCE).pos();
      sendTimePos = schema.getField(SystemColumns.SEND_TIME_MICROS).pos();
    }
    IngestMetrics.get().writerOpened();
    if (batching.commitPerBundle()) {
      holdAppends("commit a bundle's appends as one", false);
    } else if (batching.holdWhileBehind()) {
      holdAppends("hold its appends while behind (WriteStage.holdsWhileBehind)", true);
    }
    if (overlapsAppends()) {
      appender = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "streamlab-append " + table);
        t.setDaemon(true);
        return t;
      });
    }
  }

  /**
   * Sets this writer up to hold its appends until they commit, or refuses a writer that cannot
   * ({@code needsAppender}: nor one whose appends do not {@link #overlapsAppends}, as holding
   * while behind needs the appender thread to end aged batches).
   */
  private void holdAppends(String what, boolean needsAppender) throws Exception {
    if (ownWriter == null || (needsAppender && !overlapsAppends()) || !ownWriter.holdUntilCommit()) {
      throw new IllegalArgumentException("the writer of " + table + " cannot " + what
          + ": only DuckDB's, without a connection pool, warehouse model or fake quota");
    }
    heldSendTimes = new long[1024];
  }

  /**
   * Whether a batch is appended on a thread of its own while this one goes on reading the same
   * bundle, as BigQueryIO's Storage Write API writers keep their appends in flight and wait for
   * them when the bundle finishes. The reading thread used to wait out every append (more than
   * half its time at 60,000 events/s into PostgreSQL), and events queued in the consumer
   * meanwhile. At most one append per writer is in flight, so its batches stay in order, and
   * {@link #finishBundle} waits for it, so a bundle still ends with its rows in the table (what a
   * checkpoint relies on). Not where a decorator stands for the warehouse (its model, the fake
   * quota, {@link StoreDecorator#modelsWarehouse}): its round trips are modelled one at a time per
   * writer, as measured; nor for the shared pool of a connection-pool method, nor for dead letters.
   * Throttling alone does not count: every ingestion's store carries it.
   */
  boolean overlapsAppends() {
    StoreDecorator decorator = storeSpec.decorator();
    return pool == null && !isDeadLetterTable && (decorator == null || !decorator.modelsWarehouse());
  }

  @StartBundle
  public void startBundle(StartBundleContext context) {
    if (maxAgeNanos == 0) {
      maxAgeNanos = maxAgeNanos(batching, context.getPipelineOptions());
      if (batching.holdWhileBehind() && maxAgeNanos != Long.MAX_VALUE) {
        // The runner's bundles now outlast a batch's age (WriteStage.configure), and an element
        // that would find a batch aged may come late: the reader polls again only a tick after it
        // found nothing. So the appender thread ends an aged batch itself.
        bufferLock = new Object();
        long period = Math.max(1, TimeUnit.NANOSECONDS.toMillis(maxAgeNanos) / 2);
        appender.scheduleWithFixedDelay(this::appendIfAged, period, period, TimeUnit.MILLISECONDS);
      }
    }
    heldRows = 0; // held by a bundle that failed: rolled back, not written
  }

  static long maxAgeNanos(Batching batching, PipelineOptions options) {
    if (!batching.atRunnerBundleTime() || !WriteStage.onFlink(options)) return Long.MAX_VALUE;
    long millis = options.as(WriterOptions.class).getAppendMaxAgeMillis();
    if (millis <= 0) millis = options.as(FlinkPipelineOptions.class).getMaxBundleTimeMills();
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  @ProcessElement
  public void process(@Element GenericRecord row) throws Exception {
    if (bufferLock != null) throwAgedAppendFailure(); // only the timer's appends fail there
    Object value = row;
    GenericRecord notConvertible = null;
    if (conversion != null) {
      try {
        value = conversion.convert(row);
      } catch (RuntimeException e) {
        notConvertible = WriteDeadLetters.of(DeadLetters.Stage.CONVERT, e, row);
      }
    }
    Object element = value;
    GenericRecord deadLetter = notConvertible;
    Batch due = onBuffer(() -> add(element, deadLetter));
    if (due != null) send(due);
  }

  /** Runs {@code step} on the buffer: under {@link #bufferLock} where the appender thread may take it too. */
  private Batch onBuffer(Supplier<Batch> step) {
    if (bufferLock == null) return step.get();
    synchronized (bufferLock) {
      return step.get();
    }
  }

  /** A batch taken from the buffer: its elements and the dead letters of the records not converted. */
  private record Batch(List<Object> elements, List<GenericRecord> notConverted) {}

  /** Buffers {@code value} (or the dead letter of a record not converted); the batch it completes, or null. */
  private Batch add(Object value, GenericRecord notConvertible) {
    if (notConvertible != null) {
      notConverted.add(notConvertible);
      return null;
    }
    if (buffer.isEmpty()) firstBufferedNanos = System.nanoTime();
    buffer.add(value);
    if (buffer.size() >= batching.maxRows()
        || (maxAgeNanos > 0 && System.nanoTime() - firstBufferedNanos >= maxAgeNanos)) {
      return take();
    }
    return null;
  }

  /** What is buffered as a batch, the buffer left empty; null when nothing is. */
  private Batch take() {
    if (buffer.isEmpty() && notConverted.isEmpty()) return null;
    Batch b = new Batch(buffer, notConverted);
    buffer = new ArrayList<>(); // the writer may still hold the old list's records
    notConverted = new ArrayList<>();
    return b;
  }

  /**
   * On the appender thread, every half batch age ({@link #bufferLock}'s writers): appends the
   * buffered batch if its first row is {@link #maxAgeNanos} old, in order with the appends the
   * reading thread hands over (one thread runs them all).
   */
  private void appendIfAged() {
    if (agedAppendFailure != null) return;
    Batch due = onBuffer(() -> !buffer.isEmpty() && System.nanoTime() - firstBufferedNanos >= maxAgeNanos ? take() : null);
    if (due == null) return;
    try {
      appendBatch(due.elements(), due.notConverted());
    } catch (Exception e) {
      agedAppendFailure = e; // the bundle fails on the reading thread, and the runner replays it
    }
  }

  private void throwAgedAppendFailure() throws Exception {
    Exception e = agedAppendFailure;
    if (e != null) throw e;
  }

  @FinishBundle
  public void finishBundle() throws Exception {
    flush();
    awaitInFlight();
    if (bufferLock != null) appender.submit(() -> null).get(); // and an aged batch's append, if one runs
    throwAgedAppendFailure();
    if (heldSendTimes != null) commitHeld();
    if (conversion != null) conversion.flush();
  }

  /** Commits the bundle's held appends: their rows are written, and their latency ends, now. */
  private void commitHeld() throws Exception {
    int n = heldRows;
    heldRows = 0; // a failed commit fails the bundle: the runner replays its rows
    ownWriter.commitHeld();
    if (n == 0) return;
    long visibleMicros = Clock.nowMicros();
    long[] latencies = new long[n];
    for (int i = 0; i < n; i++) latencies[i] = visibleMicros - heldSendTimes[i];
    IngestMetrics metrics = IngestMetrics.get();
    metrics.recordWritten(n);
    metrics.recordLatencies(latencies, n);
  }

  /** Writes these elements now as one batch, outside a bundle's buffering (the keyed writers' requests). */
  void write(List<Object> elements) throws Exception {
    awaitInFlight();
    appendBatch(elements, new ArrayList<>());
  }

  /** Appends what is buffered. */
  private void flush() throws Exception {
    Batch b = onBuffer(this::take);
    if (b != null) send(b);
  }

  /** Appends {@code b}: handed to {@link #appender} once the append before it is done, else here. */
  private void send(Batch b) throws Exception {
    awaitInFlight();
    if (appender == null) {
      appendBatch(b.elements(), b.notConverted());
      return;
    }
    inFlight = appender.submit(() -> {
      appendBatch(b.elements(), b.notConverted());
      return null;
    });
  }

  /** Waits for the append in flight, if any; its failure is this thread's. */
  private void awaitInFlight() throws Exception {
    if (inFlight == null) return;
    Future<?> f = inFlight;
    inFlight = null;
    try {
      f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) throw cause;
      throw e;
    }
  }

  /** Converts {@code elements} back into records and appends them, with {@code failed} and the rows the store refuses as dead letters. */
  private void appendBatch(List<Object> elements, List<GenericRecord> failed) throws Exception {
    List<GenericRecord> rows = new ArrayList<>(elements.size());
    for (Object element : elements) {
      try {
        rows.add(format.toRecord(element, schema));
      } catch (RuntimeException e) {
        if (isDeadLetterTable) throw e;
        failed.add(WriteDeadLetters.ofElement(DeadLetters.Stage.CONVERT, e, element));
      }
    }
    long[] ids = null;
    if (dedupByInsertId) {
      ids = new long[rows.size()];
      List<GenericRecord> fresh = new ArrayList<>(rows.size());
      for (GenericRecord r : rows) {
        long id = InsertIds.id((Integer) r.get(producerPos), (Long) r.get(sequencePos));
        if (!insertIds.seen(id)) {
          ids[fresh.size()] = id;
          fresh.add(r);
        }
      }
      rows = fresh;
    }
    if (!rows.isEmpty()) {
      long start = System.nanoTime();
      List<GenericRecord> written = appendOrSplit(rows, failed);
      long end = System.nanoTime();
      // Latency ends when the append has returned: only then are the rows visible to readers.
      long visibleMicros = Clock.nowMicros();
      IngestMetrics metrics = IngestMetrics.get();
      if (heldSendTimes != null) hold(written);
      else metrics.recordWritten(written.size());
      long youngest = Long.MAX_VALUE;
      if (!isDeadLetterTable) {
        long ages = 0;
        long[] latencies = heldSendTimes == null ? new long[written.size()] : null; // held rows: at the commit
        int n = 0;
        for (GenericRecord r : written) {
          long age = visibleMicros - (Long) r.get(sendTimePos);
          if (latencies != null) latencies[n++] = age;
          ages += age;
          youngest = Math.min(youngest, age);
        }
        if (latencies != null) metrics.recordLatencies(latencies, n);
        metrics.stage(Stage.WRITE).record(written.size(), 0, end - start, written.size(), ages);
      }
      if (batching.holdWhileBehind() && !written.isEmpty()
          && (youngest < Batching.BEHIND_MICROS || heldRows >= Batching.MAX_HELD_ROWS)) {
        commitHeld(); // caught up, or as much as a transaction holds
      }
      if (ids != null && written.size() == rows.size()) insertIds.remember(ids, rows.size());
    }
    if (!failed.isEmpty()) appendDeadLetters(failed);
  }

  /**
   * Keeps the send times of rows appended into the open transaction until {@link #commitHeld}.
   * Rows a failed append made the writer commit early count from the bundle's end too: their
   * latency is overstated by at most a bundle, never understated.
   */
  private void hold(List<GenericRecord> written) {
    if (heldRows + written.size() > heldSendTimes.length) {
      heldSendTimes = Arrays.copyOf(heldSendTimes, Math.max(heldSendTimes.length * 2, heldRows + written.size()));
    }
    for (GenericRecord r : written) heldSendTimes[heldRows++] = (Long) r.get(sendTimePos);
  }

  /**
   * @return the rows written; rows the store refused for their content are added to {@code
   *     failed}. A batch that keeps failing is split into single rows to find them; any other
   *     failure fails the bundle (see {@link RowRefusals}).
   */
  private List<GenericRecord> appendOrSplit(List<GenericRecord> rows, List<GenericRecord> failed) throws Exception {
    for (int attempt = 1; attempt <= ATTEMPTS; ) {
      try {
        append(rows);
        outage.over();
        return rows;
      } catch (Exception e) {
        if (TableWriter.HeldAppendsLost.in(e) != null) throw e; // only the runner's replay brings them back
        if (RowRefusals.interrupted(e)) throw e; // the task is cancelled: its rows are replayed
        IdentityCollisions.Found collided = IdentityCollisions.Found.in(e);
        if (collided != null) { // rolled back: the other rows go again, these become dead letters
          rows = withoutCollisions(rows, collided.collisions(), failed);
          if (rows.isEmpty()) return rows;
          continue;
        }
        if (StoreUnavailableException.isCause(e)) {
          outage.pauseOrGiveUp(e); // the store's fault, not the rows': does not use up an attempt
          continue;
        }
        if (isDeadLetterTable && attempt == ATTEMPTS) throw e;
        if (!isDeadLetterTable && RowRefusals.refusedForContent(e)) break; // it would fail again: find the row
        Thread.sleep(100L * attempt); // e.g. a write-write conflict with another writer
        attempt++;
      }
    }
    List<GenericRecord> written = new ArrayList<>();
    for (GenericRecord r : rows) {
      try {
        append(List.of(r));
        written.add(r);
      } catch (Exception e) {
        // anything else fails the bundle: dead-lettered, a good row would be written again by the replay
        if (!RowRefusals.refusedForContent(e)) throw e;
        failed.add(WriteDeadLetters.of(DeadLetters.Stage.WRITE, e, r));
      }
    }
    return written;
  }

  /** {@code rows} less those that collided, which are added to {@code failed} with the collision as their cause. */
  private List<GenericRecord> withoutCollisions(List<GenericRecord> rows, List<IdentityCollisions.Collision> collisions,
      List<GenericRecord> failed) {
    List<GenericRecord> rest = new ArrayList<>(rows.size());
    for (GenericRecord r : rows) {
      IdentityCollisions.Collision hit = null;
      for (IdentityCollisions.Collision c : collisions) {
        if (java.util.Objects.equals(c.producerId(), r.get(producerPos)) && java.util.Objects.equals(c.sequence(), r.get(sequencePos))
            && java.util.Objects.equals(c.sendTimeMicros(), r.get(sendTimePos))) {
          hit = c;
          break;
        }
      }
      if (hit == null) rest.add(r);
      else failed.add(WriteDeadLetters.of(DeadLetters.Stage.WRITE, new IdentityCollisions.Collided(hit), r));
    }
    return rest;
  }

  private void append(List<GenericRecord> rows) throws Exception {
    if (!isDeadLetterTable) WriteStats.get().appended();
    if (pool == null) {
      ownWriter.append(rows);
      return;
    }
    pool.append(rows);
  }

  private void appendDeadLetters(List<GenericRecord> failed) throws Exception {
    if (deadLetterWriter == null) {
      String failedTable = DeadLetters.tableFor(table);
      store.createTableIfMissing(failedTable, DeadLetters.SCHEMA);
      deadLetterWriter = store.openWriter(failedTable, DeadLetters.SCHEMA);
    }
    deadLetterWriter.append(failed);
    IngestMetrics.get().recordWritten(failed.size());
  }

  @Teardown
  public void teardown() throws Exception {
    if (appender != null) { // a failed bundle's append may still run (its rows are replayed): let it end before its writer closes
      appender.shutdownNow();
      appender.awaitTermination(30, TimeUnit.SECONDS);
    }
    if (deadLetterWriter != null) deadLetterWriter.close();
    if (ownWriter != null) ownWriter.close();
    if (store != null) store.close();
  }
}
