package io.streamlab.loadtest;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs one load-test point against a {@link BrokerDriver}: optional backlog build-then-drain,
 * burn-in, the measurement window, then a drain until every acknowledged message was received
 * (so missing and duplicates are final), printing one line per interval.
 */
public final class LoadtestRun {
  private final BrokerDriver driver;
  private final LoadtestSettings s;
  private final PrintStream console;
  private final String label;
  private final LoadStats stats = new LoadStats();
  private volatile boolean stopPublishing;

  public LoadtestRun(BrokerDriver driver, LoadtestSettings settings, String label, PrintStream console) {
    this.driver = driver;
    this.s = settings;
    this.label = label;
    this.console = console;
  }

  public PointResult run() throws Exception {
    driver.createTopic(s.topic(), s.subscription(), s.partitions(), s.messageSizes().largest());
    IntervalSampler sampler = new IntervalSampler(stats, s.role() == Role.BOTH, console);
    List<BrokerDriver.Publisher> clients = new ArrayList<>();
    List<BrokerDriver.Subscriber> subscribers = new ArrayList<>();
    try {
      List<RatedPublisher> publishers = s.role().publishes() ? publishers(clients) : List.of();
      PointResult.BacklogDrain drain = null;
      if (!s.backlogBuild().isZero()) {
        runPublishers(publishers, clients, s.backlogBuild().toNanos(), sampler, "backlog", false);
        long backlogMessages = sampler.backlog();
        long backlogBytes = stats.ackedBytes();
        startSubscribers(subscribers);
        long drainStart = System.nanoTime(); // after the group join, which is not drain speed
        boolean complete = awaitDrained(sampler);
        drain = new PointResult.BacklogDrain(backlogMessages, backlogBytes, (System.nanoTime() - drainStart) / 1e9, complete);
      } else if (s.role().subscribes()) {
        startSubscribers(subscribers);
      }

      Thread[] publishing = startPublishers(publishers, s.burnIn().plus(s.window()).toNanos());
      tick(sampler, "burn-in", false, s.burnIn().toNanos());
      long backlogStart = sampler.backlog();
      long ackedStart = stats.acked(), ackedBytesStart = stats.ackedBytes();
      long receivedStart = stats.received(), receivedBytesStart = stats.receivedBytes();
      long cpuStart = CpuMeter.processCpuNanos();
      long windowStart = System.nanoTime();
      tick(sampler, "window", true, s.window().toNanos());
      double windowSecs = (System.nanoTime() - windowStart) / 1e9;
      double cpuSecs = (CpuMeter.processCpuNanos() - cpuStart) / 1e9;
      long ackedWindow = stats.acked() - ackedStart, ackedBytesWindow = stats.ackedBytes() - ackedBytesStart;
      long receivedWindow = stats.received() - receivedStart;
      long receivedBytesWindow = stats.receivedBytes() - receivedBytesStart;
      long backlogEnd = sampler.backlog();

      stopPublishing = true;
      join(publishing);
      for (BrokerDriver.Publisher c : clients) c.flush();
      if (s.role() == Role.BOTH) awaitDrained(sampler);
      else if (s.role() == Role.SUBSCRIBE) awaitQuiet(sampler, subscribers);
      else sampler.sample("final", false);

      LoadStats.Latencies w = sampler.window();
      return new PointResult(label, driver.name(), s, windowSecs, ackedWindow / windowSecs,
          ackedBytesWindow / 1e6 / windowSecs, receivedWindow / windowSecs, receivedBytesWindow / 1e6 / windowSecs,
          Percentiles.of(w.publish()), Percentiles.of(w.publishDelay()), Percentiles.of(w.endToEnd()),
          stats.handedToClient(), stats.acked(), stats.errors(), stats.firstError(), stats.received(),
          stats.receivedDistinct(), s.role().subscribes() ? stats.missing(s.role() == Role.BOTH) : 0,
          stats.duplicates(), stats.unstamped(), backlogStart, backlogEnd, drain, cpuSecs, sampler.samples());
    } finally {
      stopPublishing = true;
      for (BrokerDriver.Subscriber sub : subscribers) sub.close();
      for (BrokerDriver.Publisher c : clients) c.close();
    }
  }

  /** The publishing threads, spread round-robin over the publisher clients. */
  private List<RatedPublisher> publishers(List<BrokerDriver.Publisher> clients) throws Exception {
    for (int i = 0; i < s.publishers(); i++) clients.add(driver.publisher(s.topic()));
    int threads = s.publishingThreads();
    List<RatedPublisher> list = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      list.add(new RatedPublisher(s.firstProducerId() + t, clients.get(t % clients.size()), s.messageSizes(),
          s.ratePerSec() / threads, stats, s.seed()));
    }
    return list;
  }

  private void startSubscribers(List<BrokerDriver.Subscriber> subscribers) throws Exception {
    for (int i = 0; i < s.subscribers(); i++) {
      subscribers.add(driver.subscriber(s.topic(), s.subscription(), stats::recordReceived));
    }
  }

  private Thread[] startPublishers(List<RatedPublisher> publishers, long forNanos) {
    long end = System.nanoTime() + forNanos;
    BooleanSupplier stop = () -> stopPublishing;
    Thread[] threads = new Thread[publishers.size()];
    for (int i = 0; i < threads.length; i++) {
      RatedPublisher p = publishers.get(i);
      threads[i] = new Thread(() -> p.publishUntil(end, stop), "loadtest-publisher-" + i);
      threads[i].setDaemon(true);
      threads[i].start();
    }
    return threads;
  }

  /** Publishes for a phase on its own (the backlog build), sampling as it goes. */
  private void runPublishers(List<RatedPublisher> publishers, List<BrokerDriver.Publisher> clients, long nanos,
      IntervalSampler sampler, String phase, boolean measured) throws InterruptedException {
    Thread[] threads = startPublishers(publishers, nanos);
    tick(sampler, phase, measured, nanos);
    join(threads);
    for (BrokerDriver.Publisher c : clients) c.flush();
  }

  /** Samples every interval for {@code nanos}; the last interval is cut to end on time. */
  private void tick(IntervalSampler sampler, String phase, boolean measured, long nanos) throws InterruptedException {
    long end = System.nanoTime() + nanos;
    long interval = s.interval().toNanos();
    while (true) {
      long left = end - System.nanoTime();
      if (left <= 0) return;
      TimeUnit.NANOSECONDS.sleep(Math.min(left, interval));
      sampler.sample(phase, measured);
    }
  }

  /** Waits until every acknowledged message was received, or no progress for the drain timeout. */
  private boolean awaitDrained(IntervalSampler sampler) throws InterruptedException {
    boolean complete = drain(sampler,
        () -> stats.receivedDistinct() >= stats.acked() && stats.handedToClient() == stats.acked() + stats.errors(),
        s.drainTimeout().toNanos(), Long.MAX_VALUE);
    if (!complete) {
      console.printf("drain: no progress for %s, %,d messages not received%n", s.drainTimeout(), sampler.backlog());
    }
    return complete;
  }

  /**
   * A subscribe-only run cannot know what was published: it reads on until nothing arrives for
   * two intervals (at most the drain timeout), so its sequence gaps are real losses rather than
   * messages still waiting in partitions it had not caught up on.
   */
  private void awaitQuiet(IntervalSampler sampler, List<BrokerDriver.Subscriber> subscribers)
      throws InterruptedException {
    // done when every subscriber has what the broker holds; a quiet spell decides only for those that cannot tell
    drain(sampler, () -> subscribers.stream().allMatch(x -> x.lag() == 0),
        () -> subscribers.stream().anyMatch(x -> x.lag() > 0),
        Math.max(2 * s.interval().toNanos(), 1_000_000_000L), s.drainTimeout().toNanos());
  }

  private boolean drain(IntervalSampler sampler, BooleanSupplier complete, long quietNanos, long maxNanos)
      throws InterruptedException {
    return drain(sampler, complete, () -> false, quietNanos, maxNanos);
  }

  /**
   * Samples every interval until {@code complete} holds (true), nothing was received for
   * {@code quietNanos} while not {@code behind} (false) or {@code maxNanos} passed (false).
   */
  private boolean drain(IntervalSampler sampler, BooleanSupplier complete, BooleanSupplier behind, long quietNanos,
      long maxNanos) throws InterruptedException {
    long start = System.nanoTime(), lastProgress = start, lastReceived = -1;
    long nextSample = start + s.interval().toNanos();
    while (true) {
      long now = System.nanoTime(), received = stats.received();
      if (complete.getAsBoolean()) {
        sampler.sample("drain", false);
        return true;
      }
      if (received != lastReceived || behind.getAsBoolean()) {
        lastReceived = received;
        lastProgress = now;
      }
      if (now - lastProgress > quietNanos || now - start > maxNanos) {
        sampler.sample("drain", false);
        return false;
      }
      if (now >= nextSample) {
        sampler.sample("drain", false);
        nextSample += s.interval().toNanos();
      }
      Thread.sleep(20);
    }
  }

  private static void join(Thread[] threads) throws InterruptedException {
    for (Thread t : threads) t.join();
  }
}
