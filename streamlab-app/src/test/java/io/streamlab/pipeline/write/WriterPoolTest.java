package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection pool of STORAGE_API_AT_LEAST_ONCE: a connection carries several appends at once
 * and returns them in the order they were sent (AppendRows' bidirectional stream); a writer that
 * cannot take concurrent appends is lent to one append at a time.
 */
class WriterPoolTest {
  private static final Schema ROW = SchemaBuilder.record("Row").fields().requiredLong("id").endRecord();

  /** Where the gated writers stand: appends entered and appended, and the latch row 1 waits on. */
  private static final AtomicInteger ENTERED = new AtomicInteger();
  private static final AtomicInteger APPENDED = new AtomicInteger();
  private static volatile CountDownLatch releaseRowOne;

  /**
   * DuckDB's writer behind a gate: an append of row 1 waits until released, the others go through.
   * The DuckDB writer itself is one thread's, so its appends are serialized here.
   */
  private record Gate(boolean concurrent) implements WrappedWriters {
    @Override
    public TableWriter wrap(String table, TableWriter duckdb) {
      return new TableWriter() {
        @Override
        public long append(List<GenericRecord> records) throws Exception {
          ENTERED.incrementAndGet();
          if ((Long) records.get(0).get("id") == 1L) releaseRowOne.await();
          long t;
          synchronized (duckdb) {
            t = duckdb.append(records);
          }
          APPENDED.incrementAndGet();
          return t;
        }

        @Override
        public boolean takesConcurrentAppends() {
          return concurrent;
        }

        @Override
        public void close() throws Exception {
          duckdb.close();
        }
      };
    }
  }

  @Test
  void appendsOverlapOnOneConnectionAndReturnInTheOrderSent(@TempDir Path dir) throws Exception {
    StoreSpec spec = gated(dir, true);
    WriterPool pool = WriterPool.of(spec, "t", ROW, 1);
    long connectionsBefore = WriteStats.get().connections();
    WriteStats.get().resetMaxInFlight();
    long inFlightBefore = WriteStats.get().maxInFlight();
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      Future<?> first = threads.submit(() -> append(pool, 1));
      awaitCount(ENTERED, 1);
      Future<?> second = threads.submit(() -> append(pool, 2));
      awaitCount(APPENDED, 1); // row 2 is in while row 1's append is still out: both on the one connection
      assertFalse(second.isDone(), "the second append returns only after the first, sent before it");
      assertEquals(inFlightBefore + 2, WriteStats.get().maxInFlight(), "two appends counted in flight at once");
      releaseRowOne.countDown();
      first.get(30, TimeUnit.SECONDS);
      second.get(30, TimeUnit.SECONDS);
      assertEquals(1, WriteStats.get().connections() - connectionsBefore, "one pooled connection carried both");
      assertEquals(2, rows(spec));
    } finally {
      releaseRowOne.countDown();
      threads.shutdownNow();
    }
  }

  @Test
  void aWriterThatTakesOneAppendAtATimeIsLentToOneAppend(@TempDir Path dir) throws Exception {
    StoreSpec spec = gated(dir, false);
    WriterPool pool = WriterPool.of(spec, "t", ROW, 1);
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      Future<?> first = threads.submit(() -> append(pool, 1));
      awaitCount(ENTERED, 1);
      Thread[] waiting = new Thread[1];
      Future<?> second = threads.submit(() -> {
        waiting[0] = Thread.currentThread();
        return append(pool, 2);
      });
      for (int i = 0; i < 1000 && (waiting[0] == null || waiting[0].getState() != Thread.State.WAITING); i++) {
        Thread.sleep(5);
      }
      assertEquals(Thread.State.WAITING, waiting[0].getState(), "the second append waits for the connection");
      assertEquals(1, ENTERED.get(), "only the first append is on the connection");
      releaseRowOne.countDown();
      first.get(30, TimeUnit.SECONDS);
      second.get(30, TimeUnit.SECONDS);
      assertEquals(2, ENTERED.get());
      assertEquals(2, rows(spec));
    } finally {
      releaseRowOne.countDown();
      threads.shutdownNow();
    }
  }

  private static StoreSpec gated(Path dir, boolean concurrent) throws Exception {
    ENTERED.set(0);
    APPENDED.set(0);
    releaseRowOne = new CountDownLatch(1);
    StoreSpec spec = StoreSpec.duckdb(dir.resolve("pool.duckdb")).withDecorator(new Gate(concurrent));
    try (TableStore store = spec.undecorated().open()) {
      store.createTableIfMissing("t", ROW, false);
    }
    return spec;
  }

  private static Void append(WriterPool pool, long id) throws Exception {
    GenericRecord r = new GenericData.Record(ROW);
    r.put("id", id);
    pool.append(List.of(r));
    return null;
  }

  private static void awaitCount(AtomicInteger n, int expected) throws InterruptedException {
    for (int i = 0; i < 1000 && n.get() < expected; i++) Thread.sleep(5);
    assertTrue(n.get() >= expected, "reached " + n.get() + ", expected " + expected);
  }

  private static long rows(StoreSpec spec) throws Exception {
    try (TableStore store = spec.undecorated().open();
        Connection c = store.openQueryConnection();
        ResultSet rs = c.createStatement().executeQuery("SELECT count(DISTINCT id) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
