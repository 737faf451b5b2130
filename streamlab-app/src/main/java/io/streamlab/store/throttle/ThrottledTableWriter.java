package io.streamlab.store.throttle;

import io.streamlab.store.TableWriter;
import io.streamlab.store.quota.QuotaLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.avro.generic.GenericRecord;

/**
 * Splits each append into requests within the quota's per-request limits, sends them through the
 * table's strategy on the table's writer pool, and returns when all are written. If one fails for
 * good, the append throws after the others have ended (their rows stay written: a retried bundle
 * writes them again). A request needs a store writer of its own while in flight (a DuckDB
 * connection is one thread's), so idle store writers are kept for the next request.
 */
final class ThrottledTableWriter implements TableWriter {
  interface WriterFactory {
    TableWriter open() throws Exception;
  }

  private final WriterFactory factory;
  private final ThrottlingStrategy strategy;
  private final ThrottleStats stats;
  private final WriterPool pool;
  private final String tableKey;
  private final QuotaLimits limits;
  private final ConcurrentLinkedQueue<TableWriter> idle = new ConcurrentLinkedQueue<>();
  /** Every store writer opened, idle or not: each holds its own appends when asked to. */
  private final ConcurrentLinkedQueue<TableWriter> opened = new ConcurrentLinkedQueue<>();
  private volatile boolean holding;

  ThrottledTableWriter(WriterFactory factory, ThrottlingStrategy strategy, ThrottleStats stats, WriterPool pool,
      String tableKey, QuotaLimits limits) {
    this.factory = factory;
    this.strategy = strategy;
    this.stats = stats;
    this.pool = pool;
    this.tableKey = tableKey;
    this.limits = limits;
  }

  @Override
  public long append(List<GenericRecord> records) throws Exception {
    List<List<GenericRecord>> requests = Requests.split(records, limits);
    try {
      // One request on an unbounded pool: the calling thread is as good as a pool thread.
      if (requests.size() == 1 && pool.unbounded()) return send(requests.get(0));
      List<Future<Long>> sent = new ArrayList<>(requests.size());
      for (List<GenericRecord> r : requests) sent.add(pool.executorFor(tableKey).submit(() -> send(r)));
      long writeTime = 0;
      Exception failure = null;
      for (Future<Long> f : sent) {
        try {
          writeTime = Math.max(writeTime, f.get());
        } catch (ExecutionException e) {
          if (failure == null) failure = e.getCause() instanceof Exception x ? x : e;
        }
      }
      if (failure != null) throw failure;
      return writeTime;
    } catch (Exception e) {
      stats.failedAppend();
      throw e;
    }
  }

  /** Every request takes a store writer of its own (see the class comment), so appends may overlap. */
  @Override
  public boolean takesConcurrentAppends() {
    return true;
  }

  private long send(List<GenericRecord> rows) throws Exception {
    TableWriter w = idle.poll();
    if (w == null) w = open();
    TableWriter writer = w;
    try {
      return strategy.send(new ThrottlingStrategy.Request() {
        @Override
        public int rows() {
          return rows.size();
        }

        @Override
        public long attempt() throws Exception {
          return writer.append(rows);
        }
      });
    } finally {
      idle.add(writer);
    }
  }

  private TableWriter open() throws Exception {
    TableWriter w = factory.open();
    opened.add(w);
    if (holding && !w.holdUntilCommit()) throw new IllegalStateException("a store writer of " + tableKey + " does not hold appends");
    return w;
  }

  /**
   * Holds the appends of every store writer this one has (a request may take any of them), each
   * in its own transaction: at least once, not atomically, as the requests were before.
   */
  @Override
  public boolean holdUntilCommit() throws Exception {
    TableWriter first = idle.isEmpty() ? open() : null;
    if (first != null) idle.add(first);
    for (TableWriter w : opened) {
      if (!w.holdUntilCommit()) return false;
    }
    holding = true;
    return true;
  }

  /** Commits every store writer's held appends; called when none is in flight. */
  @Override
  public void commitHeld() throws Exception {
    forEach(opened, TableWriter::commitHeld);
  }

  /** Closes every store writer opened (requests return theirs before the runner closes this one). */
  @Override
  public void close() throws Exception {
    try {
      forEach(opened, TableWriter::close);
    } finally {
      opened.clear();
      idle.clear();
    }
  }

  private interface WriterAction {
    void on(TableWriter w) throws Exception;
  }

  /** Acts on every writer; the first failure is thrown once all were tried, later ones suppressed in it. */
  private static void forEach(Iterable<TableWriter> writers, WriterAction action) throws Exception {
    Exception first = null;
    for (TableWriter w : writers) {
      try {
        action.on(w);
      } catch (Exception e) {
        if (first == null) first = e;
        else first.addSuppressed(e);
      }
    }
    if (first != null) throw first;
  }
}
