package io.streamlab.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class CausesTest {
  @Test
  void findsTheFirstOfATypeThroughWrappers() {
    SQLException inner = new SQLException("inner");
    SQLException outer = new SQLException("outer", inner);
    Exception e = new RuntimeException(new IOException(outer));
    assertSame(outer, Causes.find(e, SQLException.class));
    assertNull(Causes.find(e, IllegalStateException.class));
    assertTrue(Causes.any(e, t -> t == inner));
    assertSame(inner, Causes.root(e));
  }

  @Test
  void aChainThatLoopsEnds() {
    IOException a = new IOException("a");
    IOException b = new IOException("b", a);
    a.initCause(b); // a -> b -> a
    assertFalse(Causes.any(a, t -> t instanceof SQLException));
    assertNull(Causes.find(a, SQLException.class));
    assertSame(b, Causes.root(a));
  }
}
