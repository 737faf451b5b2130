package io.streamlab.store.model;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the {@link WarehouseModel} saw in this JVM: requests sent, round trips waited, requests in
 * flight now and at most, connections opened. On the embedded runners every worker is in this
 * JVM, so these are the pipeline's figures.
 */
public final class ModelStats {
  private static final ModelStats INSTANCE = new ModelStats();

  private final LongAdder requests = new LongAdder();
  private final LongAdder roundTrips = new LongAdder();
  private final LongAdder roundTripNanos = new LongAdder();
  private final LongAdder connections = new LongAdder();
  private final LongAdder transactions = new LongAdder();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong maxInFlight = new AtomicLong();

  private ModelStats() {}

  public static ModelStats get() {
    return INSTANCE;
  }

  void requestStarted() {
    requests.increment();
    long now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
  }

  void requestEnded() {
    inFlight.decrementAndGet();
  }

  void roundTrip(long nanos) {
    roundTrips.increment();
    roundTripNanos.add(nanos);
  }

  /** One local store transaction that appended the rows of one or more requests ({@link GroupCommit}). */
  void transaction() {
    transactions.increment();
  }

  void connectionOpened() {
    connections.increment();
  }

  public long requests() { return requests.sum(); }
  public long roundTrips() { return roundTrips.sum(); }
  public long inFlight() { return inFlight.get(); }
  public long maxInFlight() { return maxInFlight.get(); }
  public long connections() { return connections.sum(); }
  /** Local store transactions that appended modelled requests' rows. */
  public long transactions() { return transactions.sum(); }

  /** Mean modelled round trip so far, in microseconds (0 before the first). */
  public long meanRoundTripMicros() {
    long n = roundTrips.sum();
    return n == 0 ? 0 : roundTripNanos.sum() / n / 1000;
  }

  /** Forgets the maximum in flight (tests measure one phase at a time). */
  public void resetMaxInFlight() {
    maxInFlight.set(inFlight.get());
  }
}
