package io.streamlab.pipeline.write;

import java.io.Serializable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The key a row is shuffled on before the write.
 * <ul>
 *   <li>NONE: no shuffle (STORAGE_API_AT_LEAST_ONCE), key 0.
 *   <li>RANDOM over {@code keys}: STREAMING_INSERTS, as Beam assigns each row a random one of
 *       numStreamingKeys shard keys; with auto-sharding the key range is wide and the runner
 *       spreads it over its workers.
 *   <li>BY_EVENT over {@code keys}: STORAGE_WRITE_API; a row's shard follows from its identity
 *       (producer id, sequence), so a replayed row lands in the same shard as the first copy and
 *       two shards never race to insert the same key (on runners that shuffle by key; the Flink
 *       runner's Reshuffle is a rebalance, and the insert-or-ignore key alone keeps it exact).
 * </ul>
 */
record Sharding(Kind kind, int keys) implements Serializable {
  enum Kind { NONE, RANDOM, BY_EVENT }

  static final int AUTO_KEYS = 1 << 16;

  static Sharding none() {
    return new Sharding(Kind.NONE, 1);
  }

  static Sharding forSettings(WriteSettings w) {
    return switch (w.method()) {
      case STORAGE_API_AT_LEAST_ONCE -> none();
      case STREAMING_INSERTS -> new Sharding(Kind.RANDOM, w.autoSharding() ? AUTO_KEYS : w.numStreamingKeys());
      case STORAGE_WRITE_API -> new Sharding(Kind.BY_EVENT,
          w.autoSharding() || w.numStorageWriteApiStreams() == 0 ? AUTO_KEYS : w.numStorageWriteApiStreams());
    };
  }

  boolean shuffles() {
    return kind != Kind.NONE;
  }

  int key(int producerId, long sequence) {
    return switch (kind) {
      case NONE -> 0;
      case RANDOM -> ThreadLocalRandom.current().nextInt(keys);
      case BY_EVENT -> Math.floorMod(Long.hashCode(InsertIds.id(producerId, sequence) * 0x9E3779B97F4A7C15L), keys);
    };
  }
}
