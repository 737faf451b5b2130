package io.streamlab.bench;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.IdentityKey;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Counts lost, duplicated and unexpected rows with SQL the stores share (DuckDB, PostgreSQL, and
 * BigQuery through its {@link Dialect}):
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
   * The SQL that differs between the stores whose tables are verified: how a table is named,
   * the string type, the write time in epoch microseconds, and how the expected counts are
   * written inline. The verification's queries are otherwise one text for all of them.
   *
   * @param table a table's name as a query names it (quoted, qualified)
   * @param stringType the type a CAST to text names (VARCHAR; BigQuery's STRING)
   * @param writeTimeMicros the expression of a row's write time in epoch microseconds
   * @param valuesList the expected counts as {@code (VALUES ...) AS e(p, n)} (else a UNION ALL of
   *     SELECTs, which BigQuery takes where it has no VALUES list)
   */
  public record Dialect(UnaryOperator<String> table, String stringType, String writeTimeMicros, boolean valuesList) {
    /** DuckDB and PostgreSQL, through JDBC. */
    public static final Dialect JDBC = new Dialect(TableVerifier::quote, "VARCHAR", SystemColumns.WRITE_TIME_MICROS, true);

    String expected(Map<Integer, Long> perProducer) {
      if (perProducer.isEmpty()) return "(SELECT -2 AS p, 0 AS n) e";
      if (!valuesList) {
        return "(" + perProducer.entrySet().stream().map(e -> "SELECT " + e.getKey() + " AS p, " + e.getValue() + " AS n")
            .collect(Collectors.joining(" UNION ALL ")) + ") e";
      }
      return "(VALUES " + perProducer.entrySet().stream()
          .map(e -> "(" + e.getKey() + ", " + e.getValue() + ")").collect(Collectors.joining(", ")) + ") AS e(p, n)";
    }
  }

  /** Runs one query and returns its rows, each row's values in column order (numbers may come as text). */
  @FunctionalInterface
  public interface Query {
    List<List<Object>> rows(String sql) throws Exception;
  }

  /**
   * @param measuredProducers the producers whose rows count as measured (the measurement window's;
   *     warm-up producers have ids of their own); empty = every row
   */
  public static Verification verify(Connection c, String table, Map<Integer, Long> expectedPerProducer,
      Set<Integer> measuredProducers) throws SQLException {
    boolean hasFailed = IdentityKey.tableExists(c, DeadLetters.tableFor(table));
    if (postgres(c)) {
      try (Statement st = c.createStatement()) {
        // the grouping spills to disk in PostgreSQL's default 4 MB; JIT compiles for seconds to save less
        st.execute("SET work_mem = '256MB'");
        st.execute("SET jit = off");
      }
    }
    try {
      return verify(sql -> jdbcRows(c, sql), Dialect.JDBC, table, hasFailed, expectedPerProducer, measuredProducers);
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new SQLException(e);
    }
  }

  /**
   * The same counts through any store's queries: {@code table} and, if {@code hasFailed}, its
   * dead-letter table must hold every (producer, sequence) pair the generator sent.
   */
  public static Verification verify(Query query, Dialect d, String table, boolean hasFailed,
      Map<Integer, Long> expectedPerProducer, Set<Integer> measuredProducers) throws Exception {
    String failedTable = DeadLetters.tableFor(table);
    String pid = SystemColumns.PRODUCER_ID, seq = SystemColumns.SEQUENCE;
    // one scan of each table and one grouping by identity: the table may hold millions of rows
    String delivered = "SELECT " + pid + " AS p, " + seq + " AS s, 1 AS t FROM " + d.table().apply(table)
        // a dead letter without identity (NULL) stands for no expected event; a collision's for another
        // event than the one its identity names (that one is in the table)
        + (hasFailed ? " UNION ALL SELECT " + pid + ", " + seq + ", NULL FROM " + d.table().apply(failedTable) + " WHERE "
            + pid + " IS NOT NULL AND NOT " + COLLIDED : "");
    long expected = expectedPerProducer.values().stream().mapToLong(Long::longValue).sum();
    String sql = "WITH g AS (SELECT p, s, count(*) AS c, count(t) AS tc FROM (" + delivered + ") d GROUP BY p, s) "
        + "SELECT CAST(coalesce(sum(g.c), 0) AS BIGINT), count(*), count(e.p), CAST(coalesce(sum(g.tc), 0) AS BIGINT), "
        + "count(CASE WHEN g.tc > 0 THEN 1 END) "
        + "FROM g LEFT JOIN " + d.expected(expectedPerProducer) + " ON g.p = e.p AND g.s >= 0 AND g.s < e.n";
    List<Object> counts = query.rows(sql).get(0);
    long rows = number(counts.get(0)), distinctAll = number(counts.get(1)), matched = number(counts.get(2));
    long tableRows = number(counts.get(3)), duplicatedInTable = tableRows - number(counts.get(4));
    String w = d.writeTimeMicros();
    List<Object> window = query.rows("SELECT count(*), min(" + w + "), max(" + w + ") FROM " + d.table().apply(table)
        + (measuredProducers.isEmpty() ? "" : " WHERE " + pid + " IN (" + measuredProducers.stream()
            .map(String::valueOf).collect(Collectors.joining(", ")) + ")")).get(0);
    Map<String, Long> failedByStage = new TreeMap<>();
    if (hasFailed) {
      for (List<Object> r : query.rows(failedOnceSql(d.table().apply(failedTable), d.stringType()))) {
        failedByStage.put(String.valueOf(r.get(0)), number(r.get(1)));
      }
    }
    return new Verification(expected, rows, matched, expected - matched, rows - distinctAll,
        distinctAll - matched, failedByStage, number(window.get(0)), number(window.get(1)), number(window.get(2)),
        duplicatedInTable, tableRows);
  }

  /** A count or a time as a store returns it: a number, its text, or NULL (an empty table's min: 0). */
  private static long number(Object v) {
    if (v == null) return 0;
    return v instanceof Number n ? n.longValue() : Long.parseLong(v.toString());
  }

  private static List<List<Object>> jdbcRows(Connection c, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> r = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) r.add(rs.getObject(i));
        rows.add(r);
      }
    }
    return rows;
  }

  /**
   * Dead letters per stage, each event once however often a replay wrote it again (by identity;
   * those without one are each counted).
   */
  public static String failedOnceSql(String failedTable) {
    return failedOnceSql(quote(failedTable), "VARCHAR");
  }

  /** @param failedTable the dead-letter table as a query names it */
  static String failedOnceSql(String failedTable, String stringType) {
    String pid = SystemColumns.PRODUCER_ID, seq = SystemColumns.SEQUENCE;
    // a collision's identity is a stored row's, so its send time tells one colliding event from another
    String stage = "CASE WHEN " + COLLIDED + " THEN '" + COLLISION_STAGE + "' ELSE stage END";
    return "SELECT " + stage + " AS st, count(DISTINCT CAST(" + pid + " AS " + stringType + ") || '/' || CAST(" + seq + " AS " + stringType + ")"
        + " || CASE WHEN " + COLLIDED + " THEN '/' || CAST(" + SystemColumns.SEND_TIME_MICROS + " AS " + stringType
        + ") ELSE '' END) + sum(CASE WHEN " + pid + " IS NULL THEN 1 ELSE 0 END) FROM " + failedTable + " GROUP BY st";
  }

  private static boolean postgres(Connection c) throws SQLException {
    return c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
  }

  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
