package io.streamlab.pipeline.write;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.avro.Schema;

/**
 * {@code --useConnectionPool}: the writers of one table in this process share a few store
 * connections instead of one each, as BigQueryIO's connection pool multiplexes Storage API
 * streams. A writer borrows a connection for one append and gives it back. Connections are
 * created on demand up to the pool size and closed when the process exits.
 */
final class WriterPool {
  private static final Map<String, WriterPool> POOLS = new HashMap<>();

  private final TableStore store;
  private final String table;
  private final Schema schema;
  private final int size;
  private final BlockingQueue<TableWriter> idle;
  private final List<TableWriter> all = new ArrayList<>();

  private WriterPool(StoreSpec spec, String table, Schema schema, int size) {
    this.store = spec.open();
    this.table = table;
    this.schema = schema;
    this.size = size;
    this.idle = new ArrayBlockingQueue<>(size);
  }

  static WriterPool of(StoreSpec spec, String table, Schema schema, int size) {
    synchronized (POOLS) {
      if (POOLS.isEmpty()) Runtime.getRuntime().addShutdownHook(new Thread(WriterPool::closeAll, "writer-pools-close"));
      return POOLS.computeIfAbsent(spec + "/" + table, k -> new WriterPool(spec, table, schema, size));
    }
  }

  TableWriter borrow() throws Exception {
    TableWriter w = idle.poll();
    if (w != null) return w;
    synchronized (this) {
      if (all.size() < size) {
        w = store.openWriter(table, schema);
        all.add(w);
        WriteStats.get().connectionOpened();
        return w;
      }
    }
    return idle.take();
  }

  void giveBack(TableWriter w) {
    idle.add(w);
  }

  private static void closeAll() {
    synchronized (POOLS) {
      for (WriterPool p : POOLS.values()) {
        for (TableWriter w : p.all) {
          try {
            w.close();
          } catch (Exception ignored) {
            // exiting anyway; every append is already committed
          }
        }
        try {
          p.store.close();
        } catch (Exception ignored) {
          // same
        }
      }
      POOLS.clear();
    }
  }
}
