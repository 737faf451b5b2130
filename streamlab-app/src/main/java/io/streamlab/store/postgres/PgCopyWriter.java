package io.streamlab.store.postgres;

import io.streamlab.metrics.Clock;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.StoreUnavailableException;
import io.streamlab.store.TableWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Appends a batch with one binary COPY. Plain: COPY straight into the table, one atomic
 * statement. Keyed (exactly-once): COPY into a session-private staging table, then
 * {@code INSERT ... SELECT ... ON CONFLICT (producer id, sequence) DO NOTHING}, both in one
 * transaction: the batch is in the table once, whatever was there before. (COPY cannot skip
 * conflicting rows itself; measured here the staging round costs ~50 % of plain COPY.)
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
  private final String mergeSql;
  private final String target;
  private final String staging;
  private final PgBinary.Row columns;
  /** Bytes sent to the server per write (one network write of the driver). */
  private static final int CHUNK = 1 << 16;
  private final CopyBuffer rows = new CopyBuffer(CHUNK + (8 << 10));

  PgCopyWriter(Connector connector, String table, Schema record, boolean keyed) throws SQLException {
    this.connector = connector;
    this.keyed = keyed;
    List<Schema.Field> fields = record.getFields();
    columns = new PgBinary.Row(fields);
    target = PgTypes.quote(table);
    if (keyed) {
      staging = PgTypes.quote("sl_staging_" + table);
      stagingSql = "CREATE TEMPORARY TABLE IF NOT EXISTS " + staging + " (LIKE " + target + ") ON COMMIT DELETE ROWS";
      copySql = "COPY " + staging + " FROM STDIN (FORMAT binary)";
      mergeSql = "INSERT INTO " + target + " SELECT * FROM " + staging + " ON CONFLICT DO NOTHING";
    } else {
      stagingSql = null;
      staging = null;
      copySql = "COPY " + target + " FROM STDIN (FORMAT binary)";
      mergeSql = null;
    }
    connection = open(); // fail now if the store cannot be reached at all
  }

  /** A new session: autocommit for plain COPY; for keyed, its own staging table (temporary tables die with their session). */
  private Connection open() throws SQLException {
    Connection c = connector.connect();
    try {
      if (keyed) {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
          st.execute(stagingSql);
        }
        c.commit();
      } else {
        c.setAutoCommit(true);
      }
      return c;
    } catch (SQLException e) {
      c.close();
      throw e;
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
      copy(records, writeTime);
      if (keyed) {
        int inserted;
        try (Statement st = connection.createStatement()) {
          inserted = st.executeUpdate(mergeSql);
        }
        if (inserted < records.size()) { // replays, or other events with the same identity?
          List<IdentityCollisions.Collision> collisions =
              IdentityCollisions.find(connection, target, staging, PgTypes::quote); // the batch is still staged
          if (!collisions.isEmpty()) throw new IdentityCollisions.Found(collisions); // rolled back below
        }
        connection.commit();
      }
      return writeTime;
    } catch (Exception e) {
      if (!alive()) {
        closeQuietly();
        throw new StoreUnavailableException("PostgreSQL connection lost during an append: " + e.getMessage(), e);
      }
      if (keyed) rollbackQuietly();
      throw e;
    }
  }

  /**
   * One COPY of {@code records}: the rows are built in {@link #rows} and sent in chunks of about
   * {@link #CHUNK} bytes (a row is never split between chunks: a jsonb length is patched after its
   * value is written).
   */
  private void copy(List<GenericRecord> records, long writeTime) throws SQLException {
    CopyIn op = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql);
    try {
      rows.clear();
      rows.put(PgBinary.HEADER);
      int count = columns.columns() + 1;
      for (GenericRecord r : records) {
        rows.putShort(count);
        columns.write(rows, r);
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
