package io.streamlab.store.quota;

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

  /** The reason if {@code e} is a quota refusal, else null. */
  public static QuotaReason reasonOf(Throwable e) {
    return e instanceof QuotaException q ? q.reason : null;
  }
}
