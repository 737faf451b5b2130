package io.streamlab.bench;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
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
  /**
   * The name under which dead letters of identity collisions are counted (in {@code failedByStage}):
   * events that reused a stored row's identity, told apart from other write failures.
   */
  public static final String COLLISION_STAGE = "identity-collision";
  /** Matches the cause of a collision's dead letter (see {@link IdentityCollisions.Collided}). */
  private static final String COLLIDED = "cause LIKE '%" + IdentityCollisions.Collided.class.getName() + "%'";

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
    // one scan of each table and one grouping by identity: the table may hold millions of rows
    String delivered = "SELECT " + pid + " AS p, " + seq + " AS s, 1 AS t FROM " + quote(table)
        // a dead letter without identity (NULL) stands for no expected event; a collision's for another
        // event than the one its identity names (that one is in the table)
        + (hasFailed ? " UNION ALL SELECT " + pid + ", " + seq + ", NULL FROM " + quote(failedTable) + " WHERE " + pid
            + " IS NOT NULL AND NOT " + COLLIDED : "");
    long expected = expectedPerProducer.values().stream().mapToLong(Long::longValue).sum();
    String expectedRel = expectedPerProducer.isEmpty()
        ? "(SELECT -2 AS p, 0 AS n) e"
        : "(VALUES " + expectedPerProducer.entrySet().stream()
            .map(e -> "(" + e.getKey() + ", " + e.getValue() + ")").collect(Collectors.joining(", "))
            + ") AS e(p, n)";
    String sql = "WITH g AS (SELECT p, s, count(*) AS c, count(t) AS tc FROM (" + delivered + ") d GROUP BY p, s) "
        + "SELECT CAST(coalesce(sum(g.c), 0) AS BIGINT), count(*), count(e.p), CAST(coalesce(sum(g.tc), 0) AS BIGINT), "
        + "count(CASE WHEN g.tc > 0 THEN 1 END) "
        + "FROM g LEFT JOIN " + expectedRel + " ON g.p = e.p AND g.s >= 0 AND g.s < e.n";
    long rows, distinctAll, matched, tableRows, duplicatedInTable;
    try (Statement st = c.createStatement()) {
      if (postgres(c)) {
        // the grouping spills to disk in PostgreSQL's default 4 MB; JIT compiles for seconds to save less
        st.execute("SET work_mem = '256MB'");
        st.execute("SET jit = off");
      }
      try (ResultSet rs = st.executeQuery(sql)) {
        rs.next();
        rows = rs.getLong(1);
        distinctAll = rs.getLong(2);
        matched = rs.getLong(3);
        tableRows = rs.getLong(4);
        duplicatedInTable = tableRows - rs.getLong(5);
      }
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
  public static String failedOnceSql(String failedTable) {
    String pid = SystemColumns.PRODUCER_ID, seq = SystemColumns.SEQUENCE;
    // a collision's identity is a stored row's, so its send time tells one colliding event from another
    String stage = "CASE WHEN " + COLLIDED + " THEN '" + COLLISION_STAGE + "' ELSE stage END";
    return "SELECT " + stage + " AS st, count(DISTINCT CAST(" + pid + " AS VARCHAR) || '/' || CAST(" + seq + " AS VARCHAR)"
        + " || CASE WHEN " + COLLIDED + " THEN '/' || CAST(" + SystemColumns.SEND_TIME_MICROS + " AS VARCHAR) ELSE '' END) "
        + "+ sum(CASE WHEN " + pid + " IS NULL THEN 1 ELSE 0 END) FROM " + quote(failedTable) + " GROUP BY st";
  }

  private static boolean postgres(Connection c) throws SQLException {
    return c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
