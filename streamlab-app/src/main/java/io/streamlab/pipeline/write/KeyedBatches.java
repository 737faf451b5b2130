package io.streamlab.pipeline.write;

import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.joda.time.Duration;

/**
 * The keyed write of STREAMING_INSERTS and STORAGE_WRITE_API: rows grouped per key (or per
 * auto-shard, see {@link AutoShards}) into batches of at most {@code maxRows} rows and {@code maxBytes} JSON bytes,
 * a batch waiting at most {@code maxBuffering} for more rows ("Batches"); then one request per
 * batch, at most one in flight per key ("Requests", {@link KeyedRequestsFn}).
 */
final class KeyedBatches extends PTransform<PCollection<KV<Integer, Object>>, PDone> {
  private final String scope;
  private final Sharding sharding;
  private final int maxRows;
  private final long maxBytes;
  private final Duration maxBuffering;
  private final BatchAppendFn writer;

  /**
   * @param scope names the store and table (see {@link KeyedRequestsFn})
   * @param maxBytes JSON bytes of a request; Long.MAX_VALUE = bounded by rows only
   */
  KeyedBatches(String scope, Sharding sharding, int maxRows, long maxBytes, Duration maxBuffering, BatchAppendFn writer) {
    this.scope = scope;
    this.sharding = sharding;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
    this.maxBuffering = maxBuffering;
    this.writer = writer;
  }

  @Override
  public PDone expand(PCollection<KV<Integer, Object>> rows) {
    GroupIntoBatches<Integer, Object> batches = GroupIntoBatches.<Integer, Object>ofSize(maxRows)
        .withMaxBufferingDuration(maxBuffering);
    if (maxBytes != Long.MAX_VALUE) {
      batches = batches.withByteSize(maxBytes, (SerializableFunction<Object, Long>) row -> (long) ((String) row).length());
    }
    rows.apply("Batches", batches)
        .apply("Requests", ParDo.of(new KeyedRequestsFn(scope, writer, maxRows, maxBytes,
            sharding.kind() == Sharding.Kind.BY_RUNNER)));
    return PDone.in(rows.getPipeline());
  }
}
