package io.streamlab.store.postgres;

import io.streamlab.metrics.Clock;
import io.streamlab.store.Causes;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.RowRefusedException;
import io.streamlab.store.StoreUnavailableException;
import io.streamlab.store.TableWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Appends a batch with one binary COPY. Plain: COPY straight into the table, one atomic
 * statement. Keyed (exactly-once): COPY straight into the table too, also one atomic statement
 * (autocommitted: a refused row takes the whole COPY back, so no transaction of its own, and no
 * COMMIT round trip, is needed), and the table's key checks every row; only when a row's identity is already stored or repeated in the
 * batch (a replay after a restore; the COPY fails as a whole) does the batch go again through a
 * session-private staging table and {@code INSERT ... SELECT ... ON CONFLICT (producer id,
 * sequence) DO NOTHING}, both in one transaction: the batch is in the table once, whatever was
 * there before. (COPY cannot skip conflicting rows itself, and the staging round writes every
 * row twice on the server, so fresh batches, nearly all of them, skip it.)
 *
 * <p>A connection that breaks (PostgreSQL restarted, network cut) is dropped and a new one opened
 * at the next append; the failed append surfaces as a {@link StoreUnavailableException}, so the
 * caller retries it instead of blaming its rows. Retrying is safe: a keyed batch is one
 * insert-or-ignore transaction, and a plain COPY is at-least-once anyway.
 */
final class PgCopyWriter implements TableWriter {
  /** Opens a connection (PostgresStore#connect); called again after one broke. */
  interface Connector {
    Connection connect() throws SQLException;
  }

  private final Connector connector;
  /** null after a connection broke, until the next append reconnects. */
  private Connection connection;
  private final boolean keyed;
  private final String stagingSql;
  private final String copySql;
  private final String stagingCopySql;
  private final String mergeSql;
  private final String target;
  private final String staging;
  private final PgBinary.Row columns;
  private final Schema record;
  /** Whether rows encoded before they came ({@link #encoded}) fit the table. */
  private final boolean takesCopyRows;
  /** The last CopyRow schema found equal to {@link #record}. */
  private Schema sameAsRecord;
  /** Bytes sent to the server per write (one network write of the driver). */
  private static final int CHUNK = 1 << 16;
  /** PostgreSQL's SQLSTATE for a row refused by a unique index (the identity key). */
  private static final String UNIQUE_VIOLATION = "23505";
  private final CopyBuffer rows = new CopyBuffer(CHUNK + (8 << 10));

  PgCopyWriter(Connector connector, String table, Schema record, boolean keyed) throws SQLException {
    this.connector = connector;
    this.keyed = keyed;
    target = PgTypes.quote(table);
    if (keyed) {
      staging = PgTypes.quote("sl_staging_" + table);
      stagingSql = "CREATE TEMPORARY TABLE IF NOT EXISTS " + staging + " (LIKE " + target + ") ON COMMIT DELETE ROWS";
      stagingCopySql = "COPY " + staging + " FROM STDIN (FORMAT binary)";
      mergeSql = "INSERT INTO " + target + " SELECT * FROM " + staging + " ON CONFLICT DO NOTHING";
    } else {
      stagingSql = null;
      staging = null;
      stagingCopySql = null;
      mergeSql = null;
    }
    copySql = "COPY " + target + " FROM STDIN (FORMAT binary)";
    connection = open(); // fail now if the store cannot be reached at all
    Set<String> jsonb = jsonbColumns(connection, target);
    columns = new PgBinary.Row(record.getFields(), jsonb);
    this.record = record;
    takesCopyRows = jsonb.isEmpty();
  }

  /**
   * The columns of {@code r} as they were encoded already ({@link CopyRow}), or null: the writer
   * encodes them. A CopyRow's bytes are this table's where its schema is the writer's (compared
   * once per schema object) and the table has json columns only, as {@link ThriftCopyRows} writes.
   */
  private byte[] encoded(GenericRecord r) {
    if (!(r instanceof CopyRow c) || !takesCopyRows) return null;
    if (c.getSchema() != sameAsRecord) {
      if (!c.getSchema().equals(record)) return null;
      sameAsRecord = c.getSchema();
    }
    return c.columns();
  }

  /** The table's jsonb columns: tables made before JSON values went into json columns have them. */
  private static Set<String> jsonbColumns(Connection c, String quotedTable) throws SQLException {
    Set<String> names = new HashSet<>();
    try (PreparedStatement st = c.prepareStatement("SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(?) "
        + "AND atttypid = 'jsonb'::regtype AND attnum > 0 AND NOT attisdropped")) {
      st.setString(1, quotedTable);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) names.add(rs.getString(1));
      }
    }
    if (!c.getAutoCommit()) c.commit();
    return names;
  }

  /**
   * Pages a writing session hands to the kernel at a time ({@code backend_flush_after}, 8 kB
   * pages; 256 is its maximum). COPY writes the table's pages itself, through a small ring of
   * buffers; left at the default (0), they sit dirty in the page cache until the next checkpoint
   * fsyncs them all at once, and every commit waits behind that burst (WAL and table share the
   * disk), which stalls the pipeline for the sync's length. Asked of the kernel as they are
   * written, the burst shrinks to what is left.
   */
  static final int FLUSH_AFTER_PAGES = 256;

  /** A new session in autocommit; keyed, with its own staging table (temporary tables die with their session). */
  private Connection open() throws SQLException {
    Connection c = connector.connect();
    try {
      flushAsWritten(c);
      c.setAutoCommit(true);
      if (keyed) {
        try (Statement st = c.createStatement()) {
          st.execute(stagingSql);
        }
      }
      return c;
    } catch (SQLException e) {
      c.close();
      throw e;
    }
  }

  /** Sets {@link #FLUSH_AFTER_PAGES} where the server and the URL's options left the setting at 0. */
  static void flushAsWritten(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      int pages;
      try (ResultSet rs = st.executeQuery(
          "SELECT least(" + FLUSH_AFTER_PAGES + ", max_val::int) FROM pg_settings WHERE name = 'backend_flush_after' AND setting = '0'")) {
        if (!rs.next() || (pages = rs.getInt(1)) == 0) return; // chosen already, or not on this platform (max 0)
      }
      st.execute("SET backend_flush_after = " + pages);
    }
  }

  @Override
  public long append(List<GenericRecord> records) throws Exception {
    long writeTime = Clock.nowMicros();
    try {
      if (connection == null) connection = open();
    } catch (SQLException e) {
      throw new StoreUnavailableException("PostgreSQL cannot be reached: " + e.getMessage(), e);
    }
    try {
      if (!keyed) copy(copySql, records, writeTime);
      else if (!copyNew(records, writeTime)) merge(records, writeTime);
      return writeTime;
    } catch (Exception e) {
      if (!alive()) {
        closeQuietly();
        throw new StoreUnavailableException("PostgreSQL connection lost during an append: " + e.getMessage(), e);
      }
      if (Causes.any(e, PgCopyWriter::refusesContent)) {
        throw new RowRefusedException("PostgreSQL refused a row of the append for its content: " + e.getMessage(), e);
      }
      RowRefusedException refused = RowRefusedException.ofEncoding(target, e);
      throw refused != null ? refused : e;
    }
  }

  /**
   * A server error of SQLSTATE class 22 (data exception: a NUL or invalid UTF-8 in text, a value
   * out of its type's range), 23 (integrity constraint) or 54 (program limit exceeded, e.g. a row
   * too large): what the row holds, not what went on around it (a lock timeout, 55P03, is not).
   */
  private static boolean refusesContent(Throwable t) {
    if (!(t instanceof SQLException sql) || sql.getSQLState() == null) return false;
    String state = sql.getSQLState();
    return state.startsWith("22") || state.startsWith("23") || state.startsWith("54");
  }

  /**
   * A keyed batch COPYed straight into the table, committed with the statement.
   *
   * @return false when the table's key refused a row (nothing of the batch was stored): the
   *     batch goes through {@link #merge}
   */
  private boolean copyNew(List<GenericRecord> records, long writeTime) throws SQLException {
    try {
      copy(copySql, records, writeTime);
      return true;
    } catch (SQLException e) {
      if (!UNIQUE_VIOLATION.equals(e.getSQLState())) throw e;
      return false;
    }
  }

  /**
   * A keyed batch that holds a stored or repeated identity: staged, then insert-or-ignore, and
   * where rows were ignored, the collision check, in one transaction.
   */
  private void merge(List<GenericRecord> records, long writeTime) throws SQLException, IdentityCollisions.Found {
    connection.setAutoCommit(false); // the staged rows live until the commit (ON COMMIT DELETE ROWS)
    boolean committed = false;
    try {
      copy(stagingCopySql, records, writeTime);
      int inserted;
      try (Statement st = connection.createStatement()) {
        inserted = st.executeUpdate(mergeSql);
      }
      if (inserted < records.size()) { // replays, or other events with the same identity?
        List<IdentityCollisions.Collision> collisions =
            IdentityCollisions.find(connection, target, staging, PgTypes::quote); // the batch is still staged
        if (!collisions.isEmpty()) throw new IdentityCollisions.Found(collisions);
      }
      connection.commit();
      committed = true;
    } finally {
      if (!committed) rollbackQuietly();
      autocommitQuietly();
    }
  }

  /** Back to autocommit after a merge; on a broken connection the next append's check says why. */
  private void autocommitQuietly() {
    try {
      connection.setAutoCommit(true);
    } catch (SQLException ignored) {
      // the connection is broken: append() sees the original failure and checks alive()
    }
  }

  /**
   * One COPY of {@code records}: the rows are built in {@link #rows} and sent in chunks of about
   * {@link #CHUNK} bytes (a row is never split between chunks: a JSON value's length is patched after its
   * value is written).
   */
  private void copy(String sql, List<GenericRecord> records, long writeTime) throws SQLException {
    CopyIn op = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
    try {
      rows.clear();
      rows.put(PgBinary.HEADER);
      int count = columns.columns() + 1;
      for (GenericRecord r : records) {
        rows.putShort(count);
        byte[] encoded = encoded(r);
        if (encoded != null) rows.put(encoded);
        else columns.write(rows, r);
        rows.putInt(8);
        rows.putLong(writeTime);
        if (rows.size() >= CHUNK) {
          op.writeToCopy(rows.array(), 0, rows.size());
          rows.clear();
        }
      }
      rows.putShort(-1);
      op.writeToCopy(rows.array(), 0, rows.size());
      op.endCopy();
    } finally {
      if (op.isActive()) cancelQuietly(op); // failed half-way: nothing of it is written
    }
  }

  private static void cancelQuietly(CopyIn op) {
    try {
      op.cancelCopy();
    } catch (SQLException ignored) {
      // the connection is broken: the caller sees the original failure and checks alive()
    }
  }

  private boolean alive() {
    try {
      return !connection.isClosed() && connection.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  private void closeQuietly() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // already broken
    }
    connection = null;
  }

  private void rollbackQuietly() {
    try {
      connection.rollback();
    } catch (SQLException ignored) {
      // the connection is broken; the next append fails and says why
    }
  }

  @Override
  public void close() throws SQLException {
    if (connection != null) connection.close();
  }
}
