package io.streamlab.pipeline.write;

import io.streamlab.store.Causes;
import io.streamlab.store.RowRefusedException;
import io.streamlab.store.quota.QuotaException;
import io.streamlab.store.quota.QuotaReason;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
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
 *
 * <p>Each store says which of its answers are the row's ({@link RowRefusedException}, raised by its
 * writer, which knows its SQLSTATEs or error types); this only adds the quota layer's refusal of a
 * request as invalid, and lets an interruption win over everything.
 */
final class RowRefusals {
  private RowRefusals() {}

  /**
   * True if the store (or the writer, encoding the row) refused the row for its content or key, or
   * the warehouse refused the request as invalid (beyond its per-request limit), and the append was
   * not interrupted.
   */
  static boolean refusedForContent(Throwable e) {
    if (interrupted(e)) return false;
    return RowRefusedException.isCause(e) || Causes.any(e, t -> QuotaException.reasonOf(t) == QuotaReason.INVALID);
  }

  /** True if {@code e} (or a cause) says the append's thread was interrupted or its task cancelled. */
  static boolean interrupted(Throwable e) {
    return Causes.any(e, t -> t instanceof InterruptedException || t instanceof InterruptedIOException
        || t instanceof ClosedByInterruptException || t instanceof CancellationException);
  }
}
