package io.streamlab.loadtest;

import java.time.Duration;

/**
 * One load-test point: what to send, how many clients and threads, at what rate, for how long.
 *
 * @param publishers publisher clients (Kafka: one KafkaProducer each)
 * @param subscribers subscriber clients (Kafka: one consumer and polling thread each)
 * @param cores cores the test is given: publishing threads = cores x threadsPerCore (at least
 *     one per publisher), each with its own producer id and sequence
 * @param ratePerSec target messages per second over all publishing threads; 0 = unlimited
 * @param backlogBuild before burn-in, publish this long with no subscriber, then measure how fast
 *     the subscribers drain the backlog (zero = no backlog phase)
 * @param interval one console line and one time-series point per interval
 * @param drainTimeout after publishing, wait at most this long without progress for the rest
 * @param firstProducerId producer ids are firstProducerId, firstProducerId + 1, ... (distinct
 *     bases let several publishing processes share a topic)
 */
public record LoadtestSettings(Role role, String topic, String subscription, int partitions, MessageSizes messageSizes,
    int publishers, int subscribers, int cores, int threadsPerCore, double ratePerSec, Duration burnIn,
    Duration window, Duration backlogBuild, Duration interval, Duration drainTimeout, ClientSettings client,
    int firstProducerId, long seed) {

  public LoadtestSettings {
    if (publishers < 1) throw new IllegalArgumentException("--publishers must be >= 1");
    if (subscribers < 1) throw new IllegalArgumentException("--subscribers must be >= 1");
    if (cores < 1) throw new IllegalArgumentException("--cores must be >= 1");
    if (threadsPerCore < 1) throw new IllegalArgumentException("--threadsPerCore must be >= 1");
    if (partitions < 1) throw new IllegalArgumentException("--partitions must be >= 1");
    if (ratePerSec < 0) throw new IllegalArgumentException("--ratePerSec must be >= 0");
    if (window.isZero() || window.isNegative()) throw new IllegalArgumentException("--window must be > 0");
    if (burnIn.isNegative()) throw new IllegalArgumentException("--burnIn must be >= 0");
    if (backlogBuild.isNegative()) throw new IllegalArgumentException("--backlogBuild must be >= 0");
    if (interval.toMillis() < 100) throw new IllegalArgumentException("--interval must be >= 100ms");
    if (!backlogBuild.isZero() && role != Role.BOTH) {
      throw new IllegalArgumentException("--backlogBuild needs --role=both (it publishes, then drains)");
    }
  }

  public int publishingThreads() {
    return Math.max(publishers, cores * threadsPerCore);
  }

  public LoadtestSettings withTopic(String newTopic, String newSubscription) {
    return new LoadtestSettings(role, newTopic, newSubscription, partitions, messageSizes, publishers, subscribers,
        cores, threadsPerCore, ratePerSec, burnIn, window, backlogBuild, interval, drainTimeout, client,
        firstProducerId, seed);
  }

  public LoadtestSettings withCores(int newCores) {
    return new LoadtestSettings(role, topic, subscription, partitions, messageSizes, publishers, subscribers,
        newCores, threadsPerCore, ratePerSec, burnIn, window, backlogBuild, interval, drainTimeout,
        client.withClientThreads(client.clientThreads() == 0 ? 0 : newCores * threadsPerCore), firstProducerId, seed);
  }

  public LoadtestSettings withThreadsPerCore(int threads) {
    return new LoadtestSettings(role, topic, subscription, partitions, messageSizes, publishers, subscribers,
        cores, threads, ratePerSec, burnIn, window, backlogBuild, interval, drainTimeout, client, firstProducerId, seed);
  }

  public LoadtestSettings withMessageSizes(MessageSizes sizes) {
    return new LoadtestSettings(role, topic, subscription, partitions, sizes, publishers, subscribers,
        cores, threadsPerCore, ratePerSec, burnIn, window, backlogBuild, interval, drainTimeout, client,
        firstProducerId, seed);
  }

  public LoadtestSettings withRate(double rate) {
    return new LoadtestSettings(role, topic, subscription, partitions, messageSizes, publishers, subscribers,
        cores, threadsPerCore, rate, burnIn, window, backlogBuild, interval, drainTimeout, client, firstProducerId, seed);
  }
}
