package io.streamlab.store.model;

import io.streamlab.store.ForwardingTableStore;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A store whose writers pay the {@link WarehouseModel}'s round trips on every request. The local
 * store's transaction runs during the round trip of the request that makes the rows visible, as a
 * warehouse's round trip includes its own write; the rows of requests that reach the store while
 * it is appending share its next transaction ({@link GroupCommit}), as a warehouse's servers, not
 * its client, absorb the cost per request.
 */
final class RoundTripStore extends ForwardingTableStore {
  private final WarehouseModel model;
  private final String storeId;

  RoundTripStore(TableStore inner, WarehouseModel model, String storeId) {
    super(inner);
    this.model = model;
    this.storeId = storeId;
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) throws Exception {
    TableWriter writer = inner.openWriter(table, tableRecordSchema, keyed);
    ModelStats.get().connectionOpened();
    // an exactly-once batch is an append to a pending stream and then its commit: two requests
    int requests = keyed ? 2 : 1;
    GroupCommit group = GroupCommit.of(storeId, table, keyed);
    return new TableWriter() {
      @Override
      public long append(List<GenericRecord> records) throws Exception {
        ModelStats stats = ModelStats.get();
        stats.requestStarted();
        try {
          // an exactly-once batch's append to its pending stream: its rows are not visible yet
          for (int i = 1; i < requests; i++) sleepNanos(roundTrip(stats));
          // The request that makes the rows visible. A warehouse writes them while the request is
          // out: its round trip includes its own write. So the local transaction runs inside the
          // modelled round trip, and the request returns when both are over, not one after the other
          // (which charged each append the round trip plus this machine's commit).
          long over = System.nanoTime() + roundTrip(stats);
          long writeTime;
          try {
            writeTime = group.append(records, writer);
          } catch (InterruptedException e) {
            throw e;
          } catch (Exception e) {
            sleepNanos(over - System.nanoTime()); // the error is the request's response
            throw e;
          }
          sleepNanos(over - System.nanoTime());
          return writeTime;
        } finally {
          stats.requestEnded();
        }
      }

      @Override
      public void close() throws Exception {
        writer.close();
      }
    };
  }

  private long roundTrip(ModelStats stats) {
    long nanos = model.drawNanos();
    stats.roundTrip(nanos);
    return nanos;
  }

  private static void sleepNanos(long nanos) throws InterruptedException {
    if (nanos > 0) Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
  }
}
