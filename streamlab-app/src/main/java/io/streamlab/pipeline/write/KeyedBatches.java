package io.streamlab.pipeline.write;

import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;

/**
 * The keyed write of STREAMING_INSERTS and STORAGE_WRITE_API: rows grouped per key (or per
 * auto-shard, see {@link AutoShards}) into batches of at most {@code maxRows} rows and {@code maxBytes} JSON bytes,
 * a batch waiting at most {@code maxBuffering} for more rows; then one request per batch, at most
 * one in flight per key ({@link KeyedRequestsFn}).
 */
final class KeyedBatches {
  private KeyedBatches() {}

  /** @param scope names the store and table (see {@link KeyedRequestsFn}) */
  static void write(PCollection<KV<Integer, Object>> rows, String name, String scope, Sharding sharding, int maxRows,
      long maxBytes, Duration maxBuffering, BatchAppendFn writer) {
    GroupIntoBatches<Integer, Object> batches = GroupIntoBatches.<Integer, Object>ofSize(maxRows)
        .withMaxBufferingDuration(maxBuffering);
    if (maxBytes != Long.MAX_VALUE) {
      batches = batches.withByteSize(maxBytes, (SerializableFunction<Object, Long>) row -> (long) ((String) row).length());
    }
    rows.apply(name + "Batches", batches)
        .apply(name, ParDo.of(new KeyedRequestsFn(scope, writer, maxRows, maxBytes, sharding.kind() == Sharding.Kind.BY_RUNNER)));
  }
}
