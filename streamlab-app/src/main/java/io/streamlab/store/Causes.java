package io.streamlab.store;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Walks an exception's cause chain. Writers and decorators wrap what a store answered (an
 * IOException around a driver's SQLException, a bundle's failure around both), so what a failure
 * means is decided by looking through the whole chain, once here. A chain that loops (a cause that
 * is its own cause or an earlier one) ends where it would repeat.
 */
public final class Causes {
  private Causes() {}

  /** The first of {@code e} and its causes that is a {@code type}, or null. */
  public static <T extends Throwable> T find(Throwable e, Class<T> type) {
    return type.cast(first(e, type::isInstance));
  }

  /** True if {@code e} or one of its causes passes {@code test}. */
  public static boolean any(Throwable e, Predicate<Throwable> test) {
    return first(e, test) != null;
  }

  /** The first of {@code e} and its causes that passes {@code test}, or null. */
  private static Throwable first(Throwable e, Predicate<Throwable> test) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
      if (test.test(t)) return t;
    }
    return null;
  }

  /** The innermost cause: what went wrong, without the layers that carried it. */
  public static Throwable root(Throwable e) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    Throwable root = e;
    seen.add(e);
    while (root.getCause() != null && seen.add(root.getCause())) root = root.getCause();
    return root;
  }
}
