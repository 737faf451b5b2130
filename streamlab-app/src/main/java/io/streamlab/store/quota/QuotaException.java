package io.streamlab.store.quota;

import io.streamlab.store.Causes;
import java.io.IOException;

/** A request refused by the quota layer; nothing of it was written. */
public final class QuotaException extends IOException {
  private final QuotaReason reason;

  public QuotaException(QuotaReason reason, String message) {
    super(reason.wireName() + ": " + message);
    this.reason = reason;
  }

  public QuotaReason reason() {
    return reason;
  }

  /**
   * True if {@code e} (or a cause) is a refusal that says "later", not "never": rate limit,
   * quota used up, backend error. Such a request must be retried (or its bundle failed so the
   * runner retries it), never dead-lettered: the rows are good.
   */
  public static boolean isTransient(Throwable e) {
    QuotaException q = Causes.find(e, QuotaException.class);
    return q != null && q.reason != QuotaReason.INVALID;
  }

  /** The reason if {@code e} is a quota refusal, else null. */
  public static QuotaReason reasonOf(Throwable e) {
    return e instanceof QuotaException q ? q.reason : null;
  }
}
