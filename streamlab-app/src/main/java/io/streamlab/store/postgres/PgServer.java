package io.streamlab.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a PostgreSQL server does beside the COPYs that can show in a run's latency: its checkpoints.
 * After each one begins, the first change to every page writes a full page image to the WAL, so a
 * server that checkpoints every few seconds (a small {@code max_wal_size} at high rates) writes
 * more per row and stalls appends more often. The settings that decide how often are reported with
 * the count, so that a result says what it was measured against.
 */
public final class PgServer {
  private PgServer() {}

  /** The settings that decide how often the server checkpoints and what that costs, as SHOW prints them. */
  static final List<String> SETTINGS = List.of("server_version", "max_wal_size", "checkpoint_timeout",
      "checkpoint_completion_target", "shared_buffers", "wal_compression", "full_page_writes", "synchronous_commit");

  public static Map<String, String> settings(Connection c) throws SQLException {
    Map<String, String> settings = new LinkedHashMap<>();
    try (Statement st = c.createStatement()) {
      for (String name : SETTINGS) {
        try (ResultSet rs = st.executeQuery("SHOW " + name)) {
          if (rs.next()) settings.put(name, rs.getString(1));
        }
      }
    }
    return settings;
  }

  /**
   * Checkpoints begun since the server's statistics were reset, timed and requested (PostgreSQL 17
   * moved them). A checkpoint is counted once the checkpointer reports it, a moment after it ends:
   * the checkpointer wakes a CHECKPOINT command's caller first.
   */
  public static long checkpoints(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('server_version_num')::int >= 170000")) {
      rs.next();
      String sql = rs.getBoolean(1) ? "SELECT num_timed + num_requested FROM pg_stat_checkpointer"
          : "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter";
      try (ResultSet count = st.executeQuery(sql)) {
        count.next();
        return count.getLong(1);
      }
    }
  }
}
