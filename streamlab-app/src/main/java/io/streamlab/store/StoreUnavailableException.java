package io.streamlab.store;

/**
 * The store could not be reached: its connection was cut or it refuses connections while it
 * restarts. Nothing is wrong with the rows, so an append that fails this way is retried as it is
 * (never split, never dead-lettered); the writer reconnects on its next append.
 */
public final class StoreUnavailableException extends Exception {
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True if {@code e} or one of its causes says the store was unreachable. */
  public static boolean isCause(Throwable e) {
    return Causes.find(e, StoreUnavailableException.class) != null;
  }
}
