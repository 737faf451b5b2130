package io.streamlab.store.throttle;

import io.streamlab.store.JvmShared;
import java.io.Serializable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that send a table's requests, shared by all its writers in the JVM, as the
 * original client shared one executor: {@code unbounded} sends every request of every append at
 * once (a thread each), {@code single} one request at a time, {@code N} at most N at a time.
 *
 * @param threads 0 = unbounded
 */
public record WriterPool(int threads) implements Serializable {
  public static final WriterPool UNBOUNDED = new WriterPool(0);

  public WriterPool {
    if (threads < 0) throw new IllegalArgumentException("writer pool size must be >= 0: " + threads);
  }

  /** {@code unbounded}, {@code single} or a thread count. */
  public static WriterPool parse(String text) {
    String t = text.trim().toLowerCase();
    if (t.equals("unbounded")) return UNBOUNDED;
    if (t.equals("single")) return new WriterPool(1);
    try {
      int n = Integer.parseInt(t);
      if (n > 0) return new WriterPool(n);
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException("writer pool must be unbounded, single or a thread count > 0, got '" + text + "'");
  }

  public boolean unbounded() {
    return threads == 0;
  }

  @Override
  public String toString() {
    return threads == 0 ? "unbounded" : threads == 1 ? "single" : Integer.toString(threads);
  }

  /** The executor of this table's requests (daemon threads; idle ones end after a minute). */
  ExecutorService executorFor(String tableKey) {
    return JvmShared.get(Executor.class, tableKey + "|pool=" + this, () -> new Executor(this, tableKey)).pool;
  }

  private static final class Executor {
    final ThreadPoolExecutor pool;

    Executor(WriterPool size, String tableKey) {
      AtomicInteger n = new AtomicInteger();
      ThreadFactory f = r -> {
        Thread t = new Thread(r, "streamlab-writer-" + n.incrementAndGet() + "-" + tableKey);
        t.setDaemon(true);
        return t;
      };
      pool = size.unbounded()
          ? new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), f)
          : new ThreadPoolExecutor(size.threads, size.threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), f);
      pool.allowCoreThreadTimeOut(!size.unbounded());
    }
  }
}
