package io.streamlab.store.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warehouse model's group commit: requests that reach the store while a transaction runs
 * share the next one, each still returns only once its own rows are appended, and a failure
 * reaches only the request it belongs to.
 */
class GroupCommitTest {
  private static final Schema ROW = SchemaBuilder.record("Row").fields().requiredLong("id").endRecord();

  /** A store's writer for the test: records every transaction's rows; the first waits to be released. */
  private static final class RecordingWriter implements TableWriter {
    final List<List<Long>> transactions = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch firstStarted = new CountDownLatch(1);
    final CountDownLatch releaseFirst = new CountDownLatch(1);

    @Override
    public long append(List<GenericRecord> records) throws Exception {
      List<Long> ids = new ArrayList<>();
      for (GenericRecord r : records) ids.add((Long) r.get("id"));
      if (firstStarted.getCount() > 0) {
        firstStarted.countDown();
        releaseFirst.await();
      }
      if (ids.contains(-1L)) throw new IllegalArgumentException("row -1 refused");
      transactions.add(ids);
      return 1000 + transactions.size();
    }

    @Override
    public void close() {}
  }

  @Test
  void requestsWaitingOnATransactionShareTheNext() throws Exception {
    GroupCommit group = new GroupCommit();
    RecordingWriter writer = new RecordingWriter();
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      Future<Long> first = threads.submit(() -> group.append(rows(0), writer));
      assertTrue(writer.firstStarted.await(10, TimeUnit.SECONDS));
      List<Future<Long>> waiting = new ArrayList<>();
      for (long id = 1; id <= 20; id++) {
        long i = id;
        waiting.add(threads.submit(() -> group.append(rows(i), writer)));
      }
      awaitQueued(group, 20);
      for (Future<Long> f : waiting) assertTrue(!f.isDone(), "no request returns before its rows are appended");
      writer.releaseFirst.countDown();
      assertEquals(1001L, first.get(10, TimeUnit.SECONDS));
      for (Future<Long> f : waiting) assertEquals(1002L, f.get(10, TimeUnit.SECONDS), "one write time: one transaction");
      assertEquals(2, writer.transactions.size(), "21 requests, 2 transactions: " + writer.transactions);
      assertEquals(20, writer.transactions.get(1).size());
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aFailureReachesOnlyItsOwnRequest() throws Exception {
    GroupCommit group = new GroupCommit();
    RecordingWriter writer = new RecordingWriter();
    ExecutorService threads = Executors.newCachedThreadPool();
    try {
      Future<Long> first = threads.submit(() -> group.append(rows(0), writer));
      assertTrue(writer.firstStarted.await(10, TimeUnit.SECONDS));
      Future<Long> good1 = threads.submit(() -> group.append(rows(1), writer));
      awaitQueued(group, 1);
      Future<Long> bad = threads.submit(() -> group.append(rows(-1), writer));
      awaitQueued(group, 2);
      Future<Long> good2 = threads.submit(() -> group.append(rows(2), writer));
      awaitQueued(group, 3);
      writer.releaseFirst.countDown();
      first.get(10, TimeUnit.SECONDS);
      good1.get(10, TimeUnit.SECONDS);
      good2.get(10, TimeUnit.SECONDS);
      Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> bad.get(10, TimeUnit.SECONDS));
      assertSame(IllegalArgumentException.class, e.getCause().getClass(), "the request's own failure: " + e);
      List<Long> appended = new ArrayList<>();
      for (List<Long> t : writer.transactions) appended.addAll(t);
      Collections.sort(appended);
      assertEquals(List.of(0L, 1L, 2L), appended, "the other requests' rows, once each");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void modelledRequestsIntoDuckDbAreAllAppended(@TempDir Path dir) throws Exception {
    WarehouseModel model = WarehouseModel.bigquery(5, 10);
    long before = ModelStats.get().transactions();
    int requests = 64;
    try (TableStore store = StoreSpec.duckdb(dir.resolve("group.duckdb")).withDecorator(model).open()) {
      store.createTableIfMissing("t", ROW, false);
      ExecutorService threads = Executors.newFixedThreadPool(16);
      List<Future<Long>> done = new ArrayList<>();
      for (long id = 0; id < requests; id++) {
        long i = id;
        done.add(threads.submit(() -> {
          try (TableWriter w = store.openWriter("t", ROW, false)) {
            return w.append(rows(i));
          }
        }));
      }
      for (Future<Long> f : done) f.get(60, TimeUnit.SECONDS);
      threads.shutdown();
      try (Connection c = store.openQueryConnection();
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT id) FROM t")) {
        rs.next();
        assertEquals(requests, rs.getLong(1), "every request's row");
        assertEquals(requests, rs.getLong(2), "none twice");
      }
    }
    long transactions = ModelStats.get().transactions() - before;
    assertTrue(transactions >= 1 && transactions <= requests, "transactions counted: " + transactions);
  }

  private static void awaitQueued(GroupCommit group, int n) throws InterruptedException {
    for (int i = 0; i < 1000 && group.queued() < n; i++) Thread.sleep(5);
    assertEquals(n, group.queued(), "requests waiting");
  }

  private static List<GenericRecord> rows(long id) {
    GenericRecord r = new GenericData.Record(ROW);
    r.put("id", id);
    return List.of(r);
  }
}
