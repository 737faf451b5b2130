package io.streamlab.loadtest;

import java.time.Duration;

/**
 * The broker-client tuning a load test varies: publish batching, compression, subscriber flow
 * control and client threads. A zero (or null) leaves the client library's own default, so
 * "default vs tuned batching" compares against what a user gets without configuring anything.
 *
 * @param batchMaxMessages most messages in one publish batch (Pub/Sub; Kafka has no such limit)
 * @param batchMaxBytes most bytes in one publish batch (Kafka {@code batch.size})
 * @param batchMaxDelay longest a message waits for its batch to fill (Kafka {@code linger.ms})
 * @param compression none, gzip, snappy, lz4 or zstd (Pub/Sub: anything but none = gzip)
 * @param maxOutstandingMessages subscriber flow control (Kafka {@code max.poll.records})
 * @param maxOutstandingBytes subscriber flow control (Kafka {@code fetch.max.bytes})
 * @param clientThreads threads of each client's executor where the client has one (Pub/Sub)
 */
public record ClientSettings(long batchMaxMessages, long batchMaxBytes, Duration batchMaxDelay,
    String compression, long maxOutstandingMessages, long maxOutstandingBytes, int clientThreads) {

  public static final ClientSettings DEFAULTS = new ClientSettings(0, 0, null, "none", 0, 0, 0);

  public ClientSettings {
    if (batchMaxMessages < 0) throw new IllegalArgumentException("--batchMaxMessages must be >= 0");
    if (batchMaxBytes < 0) throw new IllegalArgumentException("--batchMaxBytes must be >= 0");
    if (batchMaxDelay != null && batchMaxDelay.isNegative()) {
      throw new IllegalArgumentException("--batchMaxDelay must be >= 0");
    }
    if (maxOutstandingMessages < 0) throw new IllegalArgumentException("--maxOutstandingMessages must be >= 0");
    if (maxOutstandingBytes < 0) throw new IllegalArgumentException("--maxOutstandingBytes must be >= 0");
    if (clientThreads < 0) throw new IllegalArgumentException("client threads must be >= 0");
    compression = compression == null ? "none" : compression.toLowerCase();
    if (!java.util.List.of("none", "gzip", "snappy", "lz4", "zstd").contains(compression)) {
      throw new IllegalArgumentException("--compression must be one of none, gzip, snappy, lz4, zstd; was '"
          + compression + "'");
    }
  }

  public ClientSettings withClientThreads(int threads) {
    return new ClientSettings(batchMaxMessages, batchMaxBytes, batchMaxDelay, compression,
        maxOutstandingMessages, maxOutstandingBytes, threads);
  }
}
