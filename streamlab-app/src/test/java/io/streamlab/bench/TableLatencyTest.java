package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Latency read back from the table (how a cluster run measures it): write time - intended send
 * time of each event's first write, measured producers only in the window's histogram, every row
 * in the per-second series.
 */
class TableLatencyTest {
  private static final long T0 = 1_700_000_000_000_000L; // epoch micros

  @Test
  void firstWriteOfEachMeasuredEvent() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE events (sl_producer_id INTEGER, sl_sequence BIGINT, sl_send_time_us BIGINT, "
            + "sl_write_time_us BIGINT)");
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO events VALUES (?, ?, ?, ?)")) {
        for (int seq = 0; seq < 100; seq++) insert(ps, 1, seq, T0 + seq * 1000L, (seq + 1) * 1000L); // 1..100 ms
        insert(ps, 1, 5, T0 + 5_000, 10_000_000); // a replayed duplicate, 10 s late: not its first write
        insert(ps, 1001, 0, T0 - 3_000_000, 5_000_000); // a warm-up row: 5 s
        ps.executeBatch();
      }
      TableLatency l = TableLatency.read(c, "events", Set.of(1));
      assertEquals(100, l.measured().getTotalCount());
      assertEquals(100, Rates.percentileMillis(l.measured(), 100), 0.5);
      assertEquals(50, Rates.percentileMillis(l.measured(), 50), 0.5);
      long inSeries = l.perSecond().stream().mapToLong(i -> i.histogram().getTotalCount()).sum();
      assertEquals(101, inSeries, "every event once in the time series, warm-up included");
      assertTrue(l.perSecond().stream().anyMatch(i -> i.histogram().getMaxValue() >= 4_990_000), "the warm-up row's 5 s");
    }
  }

  private static void insert(PreparedStatement ps, int producer, long seq, long send, long latency) throws Exception {
    ps.setInt(1, producer);
    ps.setLong(2, seq);
    ps.setLong(3, send);
    ps.setLong(4, send + latency);
    ps.addBatch();
  }
}
