package io.streamlab.pipeline.write;

import java.io.Serializable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The key a row is shuffled on before the write.
 * <ul>
 *   <li>NONE: no shuffle (STORAGE_API_AT_LEAST_ONCE), key 0.
 *   <li>RANDOM over {@code keys}: STREAMING_INSERTS, as Beam assigns each row a random one of
 *       numStreamingKeys shard keys.
 *   <li>BY_EVENT over {@code keys}: STORAGE_WRITE_API streams; a row's stream follows from its
 *       identity (producer id, sequence), so a replayed row lands in the same stream as the first
 *       copy and two streams never race to insert the same key.
 *   <li>BY_RUNNER: auto-sharding; a random one of the shards {@link AutoShards} keeps in step
 *       with the backlog.
 * </ul>
 */
record Sharding(Kind kind, int keys) implements Serializable {
  enum Kind { NONE, RANDOM, BY_EVENT, BY_RUNNER }

  static Sharding none() {
    return new Sharding(Kind.NONE, 1);
  }

  static Sharding forSettings(WriteSettings w) {
    return switch (w.method()) {
      case STORAGE_API_AT_LEAST_ONCE -> none();
      case STREAMING_INSERTS -> w.autoSharding() ? new Sharding(Kind.BY_RUNNER, 1)
          : new Sharding(Kind.RANDOM, w.numStreamingKeys());
      case STORAGE_WRITE_API -> !w.triggered() ? none()
          : w.autoSharding() || w.numStorageWriteApiStreams() == 0
          ? new Sharding(Kind.BY_RUNNER, 1) : new Sharding(Kind.BY_EVENT, w.numStorageWriteApiStreams());
    };
  }

  boolean shuffles() {
    return kind != Kind.NONE;
  }

  int key(int producerId, long sequence) {
    return switch (kind) {
      case NONE -> 0;
      case BY_RUNNER -> ThreadLocalRandom.current().nextInt(AutoShards.current());
      case RANDOM -> ThreadLocalRandom.current().nextInt(keys);
      case BY_EVENT -> Math.floorMod(Long.hashCode(InsertIds.id(producerId, sequence) * 0x9E3779B97F4A7C15L), keys);
    };
  }
}
