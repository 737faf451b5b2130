package io.streamlab.bench;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.postgres.PgServer;
import java.sql.Connection;
import java.util.Map;

/**
 * The store server's own work over a run's window, with the settings that decide it: for
 * PostgreSQL, the checkpoints it began ({@link PgServer}). For results.json ("storeServer") and the
 * summary; absent for stores without a server of their own (DuckDB is a file the ingestion writes).
 *
 * @param settings the server's settings as SHOW prints them
 * @param checkpointsInWindow checkpoints begun between the window's start and end
 */
public record StoreServerFigures(String server, Map<String, String> settings, long checkpointsInWindow) {

  /** One line for the summary. */
  public String summary() {
    return String.format("%s %s: %,d checkpoints in the window (max_wal_size %s, checkpoint_timeout %s, "
        + "shared_buffers %s)", server, settings.getOrDefault("server_version", "?"), checkpointsInWindow,
        settings.get("max_wal_size"), settings.get("checkpoint_timeout"), settings.get("shared_buffers"));
  }

  /**
   * Started at a window's start; {@link #end} at its end. A diagnostic: when the server cannot be
   * read, the run goes on without these figures (null) and says why.
   *
   * <p>One connection is opened at the start and kept until the end: the start may be taken while a
   * warm-up still sends (at its handover to the window), where a store's open and a second connect
   * would delay the window's first event.
   */
  static final class Watch implements AutoCloseable {
    private final TableStore store;
    private final Connection connection;
    private final long checkpointsAtStart;
    private final String failure;

    private Watch(TableStore store, Connection connection, long checkpointsAtStart, String failure) {
      this.store = store;
      this.connection = connection;
      this.checkpointsAtStart = checkpointsAtStart;
      this.failure = failure;
    }

    /** @param store the store watched: figures only for PostgreSQL, none for another store */
    static Watch start(StoreSpec store) {
      if (store == null || store.kind() != StoreSpec.Kind.POSTGRES) return new Watch(null, null, 0, null);
      TableStore s = null;
      Connection c = null;
      try {
        s = store.undecorated().open();
        c = s.openQueryConnection();
        return new Watch(s, c, PgServer.checkpoints(c), null);
      } catch (Exception e) {
        closeQuietly(c, s);
        return new Watch(null, null, 0, "PostgreSQL's checkpoint count could not be read: " + e.getMessage());
      }
    }

    /** Why the start could not read the server; null when it could or there is none. */
    String failure() {
      return failure;
    }

    /**
     * The window's figures, and the connection closed; null for a store without a server, one that
     * could not be read (see {@link #failure}), or a watch already ended.
     */
    StoreServerFigures end() {
      if (connection == null) return null;
      try {
        if (connection.isClosed()) return null;
        return new StoreServerFigures("PostgreSQL", PgServer.settings(connection),
            PgServer.checkpoints(connection) - checkpointsAtStart);
      } catch (Exception e) {
        return null;
      } finally {
        close();
      }
    }

    /** Ends the watch without figures (a window that failed, or was replaced); idempotent. */
    @Override
    public void close() {
      closeQuietly(connection, store);
    }

    private static void closeQuietly(Connection c, TableStore s) {
      try {
        if (c != null) c.close();
      } catch (Exception ignored) {
        // a diagnostic's connection: nothing to do
      }
      try {
        if (s != null) s.close();
      } catch (Exception ignored) {
        // as above
      }
    }
  }
}
