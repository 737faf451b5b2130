package io.streamlab.store.quota;

import java.util.function.LongSupplier;

/**
 * Tokens refill continuously at {@code ratePerSec} up to {@code capacity}; a request takes all it
 * needs or nothing. Refusing instead of waiting is what a warehouse does: the client must back off.
 */
final class TokenBucket {
  private final double ratePerNano;
  private final double capacity;
  private final LongSupplier nanoTime;
  private double tokens;
  private long lastNanos;

  TokenBucket(long ratePerSec, double capacity, LongSupplier nanoTime) {
    this.ratePerNano = ratePerSec / 1e9;
    this.capacity = capacity;
    this.nanoTime = nanoTime;
    this.tokens = capacity;
    this.lastNanos = nanoTime.getAsLong();
  }

  synchronized boolean tryTake(long n) {
    long now = nanoTime.getAsLong();
    tokens = Math.min(capacity, tokens + (now - lastNanos) * ratePerNano);
    lastNanos = now;
    if (tokens < n) return false;
    tokens -= n;
    return true;
  }

  synchronized void giveBack(long n) {
    tokens = Math.min(capacity, tokens + n);
  }
}
