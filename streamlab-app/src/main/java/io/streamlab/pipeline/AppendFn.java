package io.streamlab.pipeline;

import io.streamlab.metrics.Clock;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * At-least-once append straight from the reading stage (no shuffle): records are buffered and
 * appended in batches of {@code batchSize}, and always at the end of a bundle, so nothing the
 * runner considers processed is left unwritten. A failed append throws, and the runner retries
 * the bundle: rows may then be written twice, never lost.
 */
class AppendFn extends DoFn<GenericRecord, Void> {
  private final StoreSpec storeSpec;
  private final String table;
  private final String schemaJson;
  private final int batchSize;
  private final boolean measureLatency;

  private transient TableStore store;
  private transient TableWriter writer;
  private transient List<GenericRecord> buffer;
  private transient int sendTimePos;

  AppendFn(StoreSpec storeSpec, String table, Schema recordSchema, int batchSize, boolean measureLatency) {
    this.storeSpec = storeSpec;
    this.table = table;
    this.schemaJson = recordSchema.toString();
    this.batchSize = batchSize;
    this.measureLatency = measureLatency;
  }

  @Setup
  public void setup() throws Exception {
    Schema schema = new Schema.Parser().parse(schemaJson);
    store = storeSpec.open();
    store.createTableIfMissing(table, schema);
    writer = store.openWriter(table, schema);
    buffer = new ArrayList<>(batchSize);
    sendTimePos = schema.getField(SystemColumns.SEND_TIME_MICROS).pos();
    IngestMetrics.get().writerOpened();
  }

  @ProcessElement
  public void process(@Element GenericRecord record) throws Exception {
    buffer.add(record);
    if (buffer.size() >= batchSize) flush();
  }

  @FinishBundle
  public void finishBundle() throws Exception {
    flush();
  }

  private void flush() throws Exception {
    if (buffer.isEmpty()) return;
    long start = System.nanoTime();
    writer.append(buffer);
    // Latency ends when the append has returned: only then are the rows visible to readers.
    long visibleMicros = Clock.nowMicros();
    IngestMetrics metrics = IngestMetrics.get();
    metrics.stage(Stage.WRITE).record(buffer.size(), 0, System.nanoTime() - start);
    metrics.recordWritten(buffer.size());
    if (measureLatency) {
      for (GenericRecord r : buffer) metrics.recordLatency(visibleMicros - (Long) r.get(sendTimePos));
    }
    buffer = new ArrayList<>(batchSize); // the writer may still hold the old list's records
  }

  @Teardown
  public void teardown() throws Exception {
    if (writer != null) writer.close();
    if (store != null) store.close();
  }
}
