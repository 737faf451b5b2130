package io.streamlab.pipeline.write;

import io.streamlab.store.quota.QuotaException;
import io.streamlab.store.quota.QuotaReason;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.sql.SQLException;
import java.util.concurrent.CancellationException;

/**
 * Tells a row the store refused for what it holds from an append that failed around the row.
 *
 * <p>Only the first is a dead letter. Anything else fails the bundle, and the runner replays its
 * rows. A good row dead-lettered by a failure of its surroundings would be written again by that
 * replay, duplicated between the table and the dead-letter table. Examples are a task cancelled
 * for a failover, a server shutting down, or a lock conflict with a replaying writer. A row that
 * fails for its content fails the same way each time, so replaying the bundle cannot write it, and
 * it must become a dead letter or the job would restart forever.
 */
final class RowRefusals {
  private RowRefusals() {}

  /** DuckDB's JDBC driver names the error's type only as the message's prefix (no SQLState). */
  private static final String[] DUCKDB_CONTENT_ERRORS = {
    "Invalid Input Error", "Conversion Error", "Constraint Error", "Out of Range Error", "Mismatch Type Error"
  };

  /**
   * True if the store (or the writer, encoding the row) refused the row for its content or key:
   * PostgreSQL SQLSTATE classes 22 (data exception, e.g. a NUL or invalid UTF-8), 23 (integrity
   * constraint) and 54 (program limit exceeded, e.g. a row too large); DuckDB's input, conversion,
   * constraint and range errors; a request over the warehouse's per-request limit; a value the
   * writer's encoder cannot take (a cast or argument error, a missing required value).
   */
  static boolean refusedForContent(Throwable e) {
    if (interrupted(e)) return false;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        if (state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54"))) return true;
        String m = String.valueOf(sql.getMessage());
        for (String prefix : DUCKDB_CONTENT_ERRORS) {
          if (m.startsWith(prefix)) return true;
        }
      }
      if (QuotaException.reasonOf(t) == QuotaReason.INVALID) return true;
      if (t instanceof ClassCastException || t instanceof IllegalArgumentException || t instanceof ArithmeticException
          || t instanceof NullPointerException) {
        return true;
      }
      if (String.valueOf(t.getMessage()).contains("invalid byte sequence")) return true;
    }
    return false;
  }

  /** True if {@code e} (or a cause) says the append's thread was interrupted or its task cancelled. */
  static boolean interrupted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof InterruptedException || t instanceof InterruptedIOException
          || t instanceof ClosedByInterruptException || t instanceof CancellationException) {
        return true;
      }
    }
    return false;
  }
}
