package io.streamlab.store.model;

import io.streamlab.store.ForwardingTableStore;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A store whose writers pay the {@link WarehouseModel}'s round trips on every request; the rows of
 * requests whose round trips end together are then appended in one store transaction
 * ({@link GroupCommit}), as a warehouse's servers, not its client, absorb the cost per request.
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
          for (int i = 0; i < requests; i++) {
            long nanos = model.drawNanos();
            stats.roundTrip(nanos);
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
          }
          return group.append(records, writer);
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
}
