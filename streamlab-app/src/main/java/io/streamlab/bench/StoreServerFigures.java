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
   * @param store the PostgreSQL store watched; null for another store, or one that could not be read
   * @param failure why the start could not read the server; null when it could or there is none
   */
  record Watch(StoreSpec store, long checkpointsAtStart, String failure) {
    static Watch start(StoreSpec store) {
      if (store == null || store.kind() != StoreSpec.Kind.POSTGRES) return new Watch(null, 0, null);
      try (TableStore s = store.undecorated().open(); Connection c = s.openQueryConnection()) {
        return new Watch(store, PgServer.checkpoints(c), null);
      } catch (Exception e) {
        return new Watch(null, 0, "PostgreSQL's checkpoint count could not be read: " + e.getMessage());
      }
    }

    /** The window's figures; null for a store without a server, or one that could not be read (see {@link #failure}). */
    StoreServerFigures end() {
      if (store == null) return null;
      try (TableStore s = store.undecorated().open(); Connection c = s.openQueryConnection()) {
        return new StoreServerFigures("PostgreSQL", PgServer.settings(c), PgServer.checkpoints(c) - checkpointsAtStart);
      } catch (Exception e) {
        return null;
      }
    }
  }
}
