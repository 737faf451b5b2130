package io.streamlab.store.postgres;

import io.streamlab.store.IdentityKey;
import io.streamlab.store.JdbcUrls;
import io.streamlab.store.TableStore;
import io.streamlab.store.TableWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.apache.avro.Schema;

/**
 * A PostgreSQL database: every writer has a connection of its own and appends with binary COPY.
 * Unlike a DuckDB file it can be written by several processes at once, so it also serves a
 * pipeline that runs on a cluster. The password comes from a file or the environment, never from
 * the URL or the command line, and is never logged.
 */
public final class PostgresStore implements TableStore {
  private final String jdbcUrl;
  private final Path passwordFile;

  public PostgresStore(String jdbcUrl, Path passwordFile) {
    this.jdbcUrl = jdbcUrl;
    this.passwordFile = passwordFile;
  }

  Connection connect() throws SQLException {
    Properties p = new Properties();
    String password = password();
    if (password != null) p.setProperty("password", password);
    try {
      return DriverManager.getConnection(jdbcUrl, p);
    } catch (SQLException e) {
      // Masked: a URL that slipped past StoreSpec (or a driver message quoting it) must not print a secret.
      throw new SQLException("cannot connect to " + JdbcUrls.mask(jdbcUrl) + ": " + JdbcUrls.mask(e.getMessage()),
          e.getSQLState(), e);
    }
  }

  private String password() {
    try {
      if (passwordFile != null) return Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the password file " + passwordFile + ": " + e.getMessage());
    }
    String env = System.getenv("STREAMLAB_PG_PASSWORD");
    return env != null ? env : System.getenv("PGPASSWORD");
  }

  @Override
  public void createTableIfMissing(String table, Schema tableRecordSchema, boolean keyed) throws SQLException {
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        // Writers start together; CREATE TABLE IF NOT EXISTS is not safe against itself.
        st.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || " + literal(table) + "))");
        st.execute(PgTypes.createTableSql(table, tableRecordSchema, keyed));
      }
      if (keyed) IdentityKey.requireIfExists(c, table); // IF NOT EXISTS kept an older, unkeyed table?
      c.commit();
    }
  }

  @Override
  public TableWriter openWriter(String table, Schema tableRecordSchema, boolean keyed) throws SQLException {
    return new PgCopyWriter(this::connect, table, tableRecordSchema, keyed);
  }

  @Override
  public Connection openQueryConnection() throws SQLException {
    return connect();
  }

  @Override
  public void close() {
    // connections belong to their writers
  }

  static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
