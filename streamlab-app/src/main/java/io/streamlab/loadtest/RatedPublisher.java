package io.streamlab.loadtest;

import io.streamlab.formats.EventHeaders.Stamp;
import io.streamlab.generator.SendSchedule;
import io.streamlab.metrics.Clock;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * One publishing thread: its own producer id and sequence, messages on a fixed schedule at its
 * share of the target rate, each stamped with its <em>intended</em> send time (see
 * {@link SendSchedule}). When the client blocks or the thread falls behind, the next messages
 * go out at once but keep their scheduled times, so the delay is measured, not omitted.
 */
final class RatedPublisher {
  private final int producerId;
  private final BrokerDriver.Publisher client;
  private final MessageSizes sizes;
  private final double ratePerSec;
  private final LoadStats stats;
  private final SplittableRandom random;
  private final PayloadSource payloads;
  private long nextSequence;

  /** @param ratePerSec this thread's share of the target rate; 0 = unlimited */
  RatedPublisher(int producerId, BrokerDriver.Publisher client, MessageSizes sizes, double ratePerSec,
      LoadStats stats, long seed) {
    this.producerId = producerId;
    this.client = client;
    this.sizes = sizes;
    this.ratePerSec = ratePerSec;
    this.stats = stats;
    this.random = new SplittableRandom(seed * 1_000_003L + producerId);
    this.payloads = new PayloadSource(sizes.largest(), seed + producerId);
  }

  /** Publishes on a new schedule starting now until {@code endNanos} or until asked to stop. */
  void publishUntil(long endNanos, BooleanSupplier stopRequested) {
    SendSchedule schedule = new SendSchedule(ratePerSec, System.nanoTime(), Clock.nowMicros());
    for (long n = 0; !stopRequested.getAsBoolean(); n++) {
      long due = schedule.dueNanos(n);
      if (due >= endNanos || System.nanoTime() >= endNanos) return;
      schedule.awaitDue(due);
      int size = sizes.next(random);
      Stamp stamp = new Stamp(producerId, nextSequence++, schedule.intendedMicros(due));
      CompletableFuture<Void> acked;
      try {
        acked = client.send(payloads.payload(size), stamp);
      } catch (RuntimeException e) {
        stats.recordError(e);
        continue;
      }
      stats.recordHandedToClient(stamp.sendTimeMicros());
      acked.whenComplete((ok, error) -> {
        if (error == null) stats.recordAck(stamp, size);
        else stats.recordError(error);
      });
    }
  }
}
