package io.streamlab.store.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
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
 * A modelled request writes its rows during its round trip, as a warehouse's round trip includes
 * its own write, and returns only once the round trip is over: the local store's transaction is
 * not added after the round trip.
 */
class RoundTripStoreTest {
  private static final Schema ROW = SchemaBuilder.record("Row").fields().requiredLong("id").endRecord();
  /** A round trip no test waits out: ten minutes. */
  private static final WarehouseModel SLOW = WarehouseModel.bigquery(600_000, 600_000);

  @Test
  void rowsAreInTheTableWhileTheRoundTripIsStillOut(@TempDir Path dir) throws Exception {
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try (TableStore store = StoreSpec.duckdb(dir.resolve("rt.duckdb")).withDecorator(SLOW).open()) {
      store.createTableIfMissing("t", ROW, false);
      TableWriter writer = store.openWriter("t", ROW, false);
      Future<Long> request = threads.submit(() -> writer.append(rows(7)));
      long seen = 0;
      for (int i = 0; i < 2000 && seen == 0; i++) {
        seen = count(store);
        if (seen == 0) Thread.sleep(5);
      }
      assertEquals(1, seen, "the row is written while its request is out");
      assertFalse(request.isDone(), "the request returns only when its round trip is over");
      threads.shutdownNow(); // ends the ten-minute round trip
      ExecutionException e = assertThrows(ExecutionException.class, () -> request.get(60, TimeUnit.SECONDS));
      assertEquals(InterruptedException.class, e.getCause().getClass());
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aFailedWriteIsTheRequestsResponse(@TempDir Path dir) throws Exception {
    try (TableStore store = StoreSpec.duckdb(dir.resolve("rt.duckdb")).withDecorator(WarehouseModel.bigquery(1, 1)).open()) {
      store.createTableIfMissing("t", ROW, false);
      TableWriter writer = store.openWriter("t", ROW, false);
      GenericRecord bad = new GenericData.Record(ROW); // no id: the store refuses it
      assertThrows(Exception.class, () -> writer.append(List.of(bad)));
      assertEquals(0, count(store), "nothing of the failed request is in the table");
      writer.append(rows(1));
      assertEquals(1, count(store), "the next request's row is");
    }
  }

  private static long count(TableStore store) throws Exception {
    try (Connection c = store.openQueryConnection();
        ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<GenericRecord> rows(long id) {
    GenericRecord r = new GenericData.Record(ROW);
    r.put("id", id);
    return List.of(r);
  }
}
