package io.streamlab.bench;

import io.streamlab.metrics.LatencyLog;
import io.streamlab.schema.SystemColumns;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latency read back from the table itself: every row carries its event's intended send
 * time and the time the store wrote it (SystemColumns), so latency = write time - send time, for
 * the first write of each event (a replayed duplicate was visible already). Used where the writers
 * run in other processes (a Flink cluster) and their in-process histograms cannot be read. The
 * store stamps the write time when its append starts; the embedded measure ends when the append
 * returned, so the two differ by the duration of one append.
 *
 * @param measured latencies (micros) of the measured producers' rows
 * @param perSecond all rows (warm-up included) by the second of their write time, for the time series
 */
public record TableLatency(Histogram measured, List<LatencyLog.Interval> perSecond) {
  static final String SOURCE = "the table: write time - intended send time of each measured row's first write "
      + "(sl_write_time_us - sl_send_time_us)";

  /** @param measuredProducers the producers whose rows are measured (empty: all) */
  static TableLatency read(Connection c, String table, Set<Integer> measuredProducers) throws SQLException {
    Recorder r = new Recorder(measuredProducers);
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false); // PostgreSQL streams a result with a fetch size only inside a transaction
    try (Statement st = c.createStatement()) {
      st.setFetchSize(10_000);
      try (ResultSet rs = st.executeQuery(sql(TableVerifier.Dialect.JDBC, table))) {
        while (rs.next()) r.record(rs.getInt(1), rs.getLong(2), rs.getLong(3));
      }
    } finally {
      c.commit();
      c.setAutoCommit(autoCommit);
    }
    return r.result();
  }

  /** The same through any store's queries (BigQuery's: {@link TableVerifier.Dialect}); rows without a write time are skipped. */
  public static TableLatency read(TableVerifier.Query query, TableVerifier.Dialect d, String table,
      Set<Integer> measuredProducers) throws Exception {
    Recorder r = new Recorder(measuredProducers);
    for (List<Object> row : query.rows(sql(d, table))) {
      if (row.get(1) == null) continue;
      r.record(Integer.parseInt(row.get(0).toString()), Long.parseLong(row.get(1).toString()),
          Long.parseLong(row.get(2).toString()));
    }
    return r.result();
  }

  /** Each event's first write time and latency, by producer: one row per event. */
  private static String sql(TableVerifier.Dialect d, String table) {
    String w = d.writeTimeMicros(), s = SystemColumns.SEND_TIME_MICROS, p = SystemColumns.PRODUCER_ID;
    return "SELECT " + p + ", min(" + w + "), min(" + w + ") - min(" + s + ") FROM " + d.table().apply(table)
        + " GROUP BY " + p + ", " + SystemColumns.SEQUENCE;
  }

  /** The measured producers' latencies, and every row's by the second of its write. */
  private static final class Recorder {
    private final Set<Integer> measuredProducers;
    private final Histogram measured = newHistogram();
    private final TreeMap<Long, Histogram> bySecond = new TreeMap<>();

    Recorder(Set<Integer> measuredProducers) {
      this.measuredProducers = measuredProducers;
    }

    void record(int producer, long writeMicros, long latencyMicros) {
      long micros = Math.max(0, Math.min(latencyMicros, 3_600_000_000L));
      if (measuredProducers.isEmpty() || measuredProducers.contains(producer)) measured.recordValue(micros);
      bySecond.computeIfAbsent(writeMicros / 1_000_000, k -> newHistogram()).recordValue(micros);
    }

    TableLatency result() {
      List<LatencyLog.Interval> intervals = new ArrayList<>();
      bySecond.forEach((sec, h) -> intervals.add(new LatencyLog.Interval(sec * 1000, sec * 1000 + 1000, h)));
      return new TableLatency(measured, intervals);
    }
  }

  private static Histogram newHistogram() {
    return new Histogram(3_600_000_000L, 3);
  }
}
