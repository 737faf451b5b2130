package io.streamlab.store;

/**
 * The store refused a row of the append for what the row holds: a value the table's column or the
 * writer's encoder cannot take, a key, a size beyond its limits. Nothing of the append was stored,
 * and the same row fails the same way every time, so retrying or replaying it cannot write it: the
 * caller finds the row and dead-letters it. Each store raises this where it knows its own answers
 * (an SQLSTATE, an error's type); a failure around the rows (a lock, a lost connection, an
 * interruption) is never one.
 */
public final class RowRefusedException extends Exception {
  public RowRefusedException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True if {@code e} or one of its causes is a refusal of a row for its content. */
  public static boolean isCause(Throwable e) {
    return Causes.find(e, RowRefusedException.class) != null;
  }

  /**
   * A writer's encoder failing on a value it cannot take (of another type than the column's, out
   * of its range, a required value missing): the row's fault, as a refusal to throw; null for any
   * other failure.
   */
  public static RowRefusedException ofEncoding(String table, Exception e) {
    if (e instanceof ClassCastException || e instanceof IllegalArgumentException || e instanceof ArithmeticException
        || e instanceof NullPointerException) {
      return new RowRefusedException("a row of " + table + " cannot be encoded for the store: " + e, e);
    }
    return null;
  }
}
