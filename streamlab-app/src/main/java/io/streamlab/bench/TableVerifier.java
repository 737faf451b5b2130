package io.streamlab.bench;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityKey;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Counts lost, duplicated and unexpected rows with SQL the stores share (DuckDB, PostgreSQL):
 * the table and its dead-letter table together must hold every (producer, sequence) pair the
 * generator sent.
 */
public final class TableVerifier {
  private TableVerifier() {}

  /**
   * @param measuredProducers the producers whose rows count as measured (the measurement window's;
   *     warm-up producers have ids of their own); empty = every row
   */
  public static Verification verify(Connection c, String table, Map<Integer, Long> expectedPerProducer,
      Set<Integer> measuredProducers) throws SQLException {
    String failedTable = DeadLetters.tableFor(table);
    boolean hasFailed = IdentityKey.tableExists(c, failedTable);
    String pid = SystemColumns.PRODUCER_ID, seq = SystemColumns.SEQUENCE;
    String delivered = "SELECT " + pid + " AS p, " + seq + " AS s FROM " + quote(table)
        // a dead letter without identity (NULL) stands for no expected event
        + (hasFailed ? " UNION ALL SELECT " + pid + ", " + seq + " FROM " + quote(failedTable) + " WHERE " + pid
            + " IS NOT NULL" : "");
    long expected = expectedPerProducer.values().stream().mapToLong(Long::longValue).sum();
    String expectedRel = expectedPerProducer.isEmpty()
        ? "(SELECT -2 AS p, 0 AS n) e"
        : "(VALUES " + expectedPerProducer.entrySet().stream()
            .map(e -> "(" + e.getKey() + ", " + e.getValue() + ")").collect(Collectors.joining(", "))
            + ") AS e(p, n)";
    String sql = "WITH d AS (" + delivered + "), "
        + "u AS (SELECT DISTINCT p, s FROM d), "
        + "m AS (SELECT u.p, u.s FROM u JOIN " + expectedRel + " ON u.p = e.p AND u.s >= 0 AND u.s < e.n) "
        + "SELECT (SELECT count(*) FROM d), (SELECT count(*) FROM u), (SELECT count(*) FROM m), "
        + "(SELECT count(*) FROM " + quote(table) + "), (SELECT count(*) FROM (SELECT DISTINCT " + pid + ", " + seq
        + " FROM " + quote(table) + ") t)";
    long rows, distinctAll, matched, tableRows, duplicatedInTable;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      rows = rs.getLong(1);
      distinctAll = rs.getLong(2);
      matched = rs.getLong(3);
      tableRows = rs.getLong(4);
      duplicatedInTable = tableRows - rs.getLong(5);
    }
    long measured, first, last;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), min(" + SystemColumns.WRITE_TIME_MICROS + "), max("
            + SystemColumns.WRITE_TIME_MICROS + ") FROM " + quote(table)
            + (measuredProducers.isEmpty() ? "" : " WHERE " + pid + " IN (" + measuredProducers.stream()
                .map(String::valueOf).collect(Collectors.joining(", ")) + ")"))) {
      rs.next();
      measured = rs.getLong(1);
      first = rs.getLong(2);
      last = rs.getLong(3);
    }
    Map<String, Long> failedByStage = new TreeMap<>();
    if (hasFailed) {
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(failedOnceSql(failedTable))) {
        while (rs.next()) failedByStage.put(rs.getString(1), rs.getLong(2));
      }
    }
    return new Verification(expected, rows, matched, expected - matched, rows - distinctAll,
        distinctAll - matched, failedByStage, measured, first, last, duplicatedInTable, tableRows);
  }

  /**
   * Dead letters per stage, each event once however often a replay wrote it again (by identity;
   * those without one are each counted).
   */
  static String failedOnceSql(String failedTable) {
    String pid = SystemColumns.PRODUCER_ID, seq = SystemColumns.SEQUENCE;
    return "SELECT stage, count(DISTINCT CAST(" + pid + " AS VARCHAR) || '/' || CAST(" + seq + " AS VARCHAR)) "
        + "+ sum(CASE WHEN " + pid + " IS NULL THEN 1 ELSE 0 END) FROM " + quote(failedTable) + " GROUP BY stage";
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
