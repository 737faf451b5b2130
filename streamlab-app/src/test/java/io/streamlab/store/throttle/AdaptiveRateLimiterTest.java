package io.streamlab.store.throttle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The adaptive limiter's steps, on a manual clock: -5 % per error signal, +1 % per quiet interval. */
class AdaptiveRateLimiterTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(SECOND);

  @Test
  void slowsDownOncePerSignalAndSpeedsUpAfterQuietIntervals() throws Exception {
    AdaptiveRateLimiter l = new AdaptiveRateLimiter(new Tuning(10, 100, 0, 60_000, 1, 5, 1_000), now::get);
    assertEquals(1_000, l.rate(), 1e-9);
    long epoch = l.acquire(1);
    l.slowDown(epoch);
    assertEquals(950, l.rate(), 1e-9);
    l.slowDown(epoch); // another request of the same epoch failing: the same signal
    assertEquals(950, l.rate(), 1e-9);
    l.slowDown(l.acquire(1));
    assertEquals(902.5, l.rate(), 1e-9);
    now.addAndGet(59 * SECOND);
    l.acquire(1);
    assertEquals(902.5, l.rate(), 1e-9);
    now.addAndGet(SECOND);
    l.acquire(1);
    assertEquals(902.5 * 1.01, l.rate(), 1e-9);
  }

  @Test
  void withoutInitialRateStartsFromTheObservedRateAtTheFirstError() throws Exception {
    AdaptiveRateLimiter l = new AdaptiveRateLimiter(new Tuning(10, 100, 0, 60_000, 1, 5, 0), now::get);
    assertTrue(Double.isInfinite(l.rate()));
    for (int i = 0; i < 10; i++) {
      now.addAndGet(SECOND / 10);
      l.succeeded(400); // 4,000 rows/s
    }
    now.addAndGet(SECOND / 10);
    l.slowDown(l.acquire(400));
    assertEquals(4_000 * 0.95, l.rate(), 1e-6);
  }
}
