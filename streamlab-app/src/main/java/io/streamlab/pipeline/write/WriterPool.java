package io.streamlab.pipeline.write;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * {@code --useConnectionPool}: the writers of one table in this process share a few store
 * connections instead of one each, as BigQueryIO's connection pool multiplexes Storage API
 * streams. Connections are created on demand up to the pool size and closed when the process
 * exits.
 *
 * <p>A connection carries several appends at once, as an AppendRows connection does: a
 * bidirectional gRPC stream on which "write requests are asynchronous with guaranteed ordering"
 * (cloud.google.com/bigquery/docs/write-api, "Efficient protocol"), "responses are received in the
 * same order in which requests are sent" (the AppendRows reference). So an append goes out on an
 * idle connection, else on a new one while there are fewer than the pool's size, else on the
 * connection with the fewest appends in flight, overlapping them (with the warehouse model: their
 * round trips overlap), and returns only once the appends sent before it on that connection have
 * returned. A pooled writer that cannot take concurrent appends ({@link
 * TableWriter#takesConcurrentAppends}) is lent to one append at a time instead.
 */
final class WriterPool {
  private static final Map<String, WriterPool> POOLS = new HashMap<>();

  private final TableStore store;
  private final String table;
  private final Schema schema;
  private final int size;
  private final List<Connection> all = new ArrayList<>(); // guarded by this, as Connection's counters

  /** One pooled connection and the appends on it: in flight, and tickets in the order they were sent. */
  private static final class Connection {
    final TableWriter writer;
    int inFlight;
    long sent;
    long returned;

    Connection(TableWriter writer) {
      this.writer = writer;
    }
  }

  private WriterPool(StoreSpec spec, String table, Schema schema, int size) {
    this.store = spec.open();
    this.table = table;
    this.schema = schema;
    this.size = size;
  }

  static WriterPool of(StoreSpec spec, String table, Schema schema, int size) {
    synchronized (POOLS) {
      if (POOLS.isEmpty()) Runtime.getRuntime().addShutdownHook(new Thread(WriterPool::closeAll, "writer-pools-close"));
      return POOLS.computeIfAbsent(spec + "/" + table, k -> new WriterPool(spec, table, schema, size));
    }
  }

  /**
   * Appends on a pooled connection.
   *
   * @return once these rows and those of every append sent before them on the same connection are in
   */
  void append(List<GenericRecord> rows) throws Exception {
    Connection c;
    long ticket;
    synchronized (this) {
      c = pick();
      c.inFlight++;
      ticket = c.sent++;
    }
    WriteStats stats = WriteStats.get();
    stats.pooledAppendStarted();
    try {
      c.writer.append(rows);
    } finally {
      returnInOrder(c, ticket);
      stats.requestEnded();
    }
  }

  /** The connection for the next append; waits while every connection is lent to one append alone. */
  private Connection pick() throws Exception {
    while (true) {
      Connection leastBusy = null;
      for (Connection c : all) {
        if (c.inFlight == 0) return c;
        if (c.writer.takesConcurrentAppends() && (leastBusy == null || c.inFlight < leastBusy.inFlight)) leastBusy = c;
      }
      if (all.size() < size) {
        Connection c = new Connection(store.openWriter(table, schema));
        all.add(c);
        WriteStats.get().connectionOpened();
        return c;
      }
      if (leastBusy != null) return leastBusy;
      wait();
    }
  }

  /** Waits until the appends sent before {@code ticket} on {@code c} have returned, then returns it. */
  private synchronized void returnInOrder(Connection c, long ticket) {
    boolean interrupted = false;
    // not interruptible: the appends sent after this one on c wait for it to count as returned
    while (c.returned != ticket) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    c.returned++;
    c.inFlight--;
    notifyAll();
    if (interrupted) Thread.currentThread().interrupt();
  }

  private static void closeAll() {
    synchronized (POOLS) {
      for (WriterPool p : POOLS.values()) {
        for (Connection c : p.all) {
          try {
            c.writer.close();
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
