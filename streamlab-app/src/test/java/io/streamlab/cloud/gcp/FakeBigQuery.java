package io.streamlab.cloud.gcp;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.store.bigquery.BigQueryTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A FAKE of BigQuery for tests: datasets are schemas and tables are tables of an in-memory
 * DuckDB, and a query runs the GoogleSQL text the run sent, with only what DuckDB spells
 * otherwise translated (a {@code `project.dataset.table`} path, BigQuery's UNIX_MICROS as a
 * macro). So the verification's own SQL is what counts the rows of a fake table. Not BigQuery:
 * its SQL accepts a little more than BigQuery's (and the other way round), types are loose and
 * every column is nullable.
 */
public final class FakeBigQuery implements BigQueryService {
  private static final Pattern PATH = Pattern.compile("`([^`.]+)\\.([^`.]+)\\.([^`.]+)`");
  private final Connection db;
  private final CallLog calls;
  private volatile boolean failCreateDataset;

  public FakeBigQuery(CallLog calls) throws SQLException {
    this.calls = calls;
    db = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = db.createStatement()) {
      st.execute("CREATE MACRO UNIX_MICROS(t) AS epoch_us(t)");
    }
  }

  /** Make createDataset fail (tests of the clean-up). */
  public void failCreateDataset() {
    failCreateDataset = true;
  }

  @Override
  public synchronized void createDataset(String project, String dataset, String location) throws SQLException {
    calls.add("bigquery.createDataset " + project + ":" + dataset + " in " + location);
    if (failCreateDataset) throw new IllegalStateException("FAKE: dataset creation refused");
    execute("CREATE SCHEMA \"" + dataset + "\"");
  }

  @Override
  public synchronized void createTable(BigQueryTable table, TableSchema schema) throws SQLException {
    calls.add("bigquery.createTable " + table);
    execute("CREATE TABLE " + name(table.dataset(), table.table()) + " (" + schema.getFields().stream()
        .map(FakeBigQuery::column).collect(Collectors.joining(", ")) + ")");
  }

  private static String column(TableFieldSchema f) {
    String type = switch (f.getType()) {
      case "INTEGER", "INT64" -> "BIGINT";
      case "FLOAT", "FLOAT64" -> "DOUBLE";
      case "BOOLEAN", "BOOL" -> "BOOLEAN";
      case "TIMESTAMP" -> "TIMESTAMPTZ";
      case "BYTES" -> "BLOB";
      default -> "VARCHAR"; // strings, and what a fake need not model (records, numerics)
    };
    String dflt = "CURRENT_TIMESTAMP()".equals(f.getDefaultValueExpression()) ? " DEFAULT current_timestamp" : "";
    return "\"" + f.getName() + "\" " + type + dflt;
  }

  @Override
  public synchronized List<List<Object>> query(String project, String sql) throws SQLException {
    calls.addQuery(sql);
    Matcher m = PATH.matcher(sql);
    String duck = m.replaceAll(r -> Matcher.quoteReplacement(name(r.group(2), r.group(3))));
    List<List<Object>> rows = new ArrayList<>();
    try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(duck)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> r = new ArrayList<>();
        // as BigQuery's API returns values: text, NULL as null
        for (int i = 1; i <= n; i++) r.add(rs.getObject(i) == null ? null : rs.getString(i));
        rows.add(r);
      }
    }
    return rows;
  }

  @Override
  public synchronized void deleteDataset(String project, String dataset) throws SQLException {
    calls.add("bigquery.deleteDataset " + project + ":" + dataset);
    execute("DROP SCHEMA \"" + dataset + "\" CASCADE");
  }

  /** Inserts a row of system columns into a fake table, as a job's write would (tests' fixtures). */
  public synchronized void insert(String dataset, String table, int producer, long sequence, long sendMicros)
      throws SQLException {
    execute("INSERT INTO " + name(dataset, table) + " (sl_producer_id, sl_sequence, sl_send_time_us) VALUES ("
        + producer + ", " + sequence + ", " + sendMicros + ")");
  }

  /** Inserts a dead letter with the given identity and stage. */
  public synchronized void insertDeadLetter(String dataset, String table, int producer, long sequence, String stage)
      throws SQLException {
    execute("INSERT INTO " + name(dataset, table) + " (event_id, stage, error_message, cause, headers, original_bytes, "
        + "sl_producer_id, sl_sequence, sl_send_time_us) VALUES ('x', '" + stage + "', 'bad', 'FAKE', '', '', "
        + producer + ", " + sequence + ", 1)");
  }

  /** The schemas (datasets) that exist. */
  public synchronized List<String> datasets() throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = current_database() "
            + "AND schema_name NOT IN ('main', 'information_schema', 'pg_catalog')")) {
      while (rs.next()) names.add(rs.getString(1));
    }
    return names;
  }

  private static String name(String dataset, String table) {
    return "\"" + dataset + "\".\"" + table + "\"";
  }

  private void execute(String sql) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute(sql);
    }
  }

  /** The run closes its services; the fake's tables stay readable until {@link #shutdown}. */
  @Override
  public void close() {}

  public synchronized void shutdown() {
    try {
      db.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
