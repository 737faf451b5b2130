package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.postgres.PgServer;
import io.streamlab.store.postgres.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store server's checkpoints over a window, on the real PostgreSQL; none for DuckDB; a server that cannot be read. */
class StoreServerFiguresTest {
  @Test
  void aPostgresWindowCountsTheCheckpointsBegunInItWithTheSettingsThatDecideThem() throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_server");
    try {
      StoreServerFigures.Watch watch = StoreServerFigures.Watch.start(StoreSpec.postgres(url, null));
      assertNull(watch.failure());
      String maxWalSize;
      try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
        long before = PgServer.checkpoints(c);
        st.execute("CHECKPOINT");
        st.execute("CHECKPOINT");
        awaitCountedCheckpoints(c, before + 2);
        try (ResultSet rs = st.executeQuery("SHOW max_wal_size")) {
          rs.next();
          maxWalSize = rs.getString(1);
        }
      }
      StoreServerFigures f = watch.end();
      assertEquals("PostgreSQL", f == null ? null : f.server(), "a readable server gives figures");
      // other sessions' checkpoints (a timed one, a test beside this one) may add to the two
      assertTrue(f.checkpointsInWindow() >= 2, "two CHECKPOINTs in the window: " + f);
      assertEquals(maxWalSize, f.settings().get("max_wal_size"));
      assertTrue(f.summary().contains("checkpoints in the window (max_wal_size " + maxWalSize), f.summary());
      assertNull(watch.end(), "the end closed the watch's connection: no figures a second time");
      watch.close(); // idempotent after the end
    } finally {
      TestPostgres.drop(url);
    }
  }

  /**
   * PostgreSQL's checkpointer wakes a CHECKPOINT's caller before it reports the checkpoint to the
   * statistics (checkpointer.c: the done_cv broadcast, then pgstat_report_checkpointer), so the
   * count can lag the command by a moment (a CI run on a 2-core machine read one of two).
   */
  private static void awaitCountedCheckpoints(Connection c, long count) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (PgServer.checkpoints(c) < count && System.nanoTime() < deadline) Thread.sleep(20);
  }

  @Test
  void aDuckDbFileHasNoServerAndAnUnreachableOneIsSaidNotFailed(@TempDir Path dir) {
    StoreServerFigures.Watch duck = StoreServerFigures.Watch.start(StoreSpec.duckdb(dir.resolve("t.duckdb")));
    assertNull(duck.failure());
    assertNull(duck.end());
    StoreServerFigures.Watch gone = StoreServerFigures.Watch.start(
        StoreSpec.postgres("jdbc:postgresql://127.0.0.1:1/none?user=postgres&connectTimeout=2", null));
    assertTrue(String.valueOf(gone.failure()).startsWith("PostgreSQL's checkpoint count could not be read"),
        "a server that cannot be read is said: " + gone.failure());
    assertNull(gone.end());
  }
}
