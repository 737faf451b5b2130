package io.streamlab.pipeline.source;

import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecordCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * Where the ingestion pipeline reads its messages: {@link KafkaSource} or {@link PubsubSource}.
 * Every source hands the front stages the same element, a message's bytes with its headers as a
 * {@link KafkaRecord} (Beam's own coder-backed carrier of both): another broker's messages are
 * translated into one, so decoding, identity and dead letters stay one code path.
 */
public abstract class Source extends PTransform<PBegin, PCollection<KafkaRecord<byte[], byte[]>>> {
  /** The coder of every source's element: as KafkaIO's own, a record's key and value may be null. */
  public static Coder<KafkaRecord<byte[], byte[]>> messageCoder() {
    return KafkaRecordCoder.of(NullableCoder.of(ByteArrayCoder.of()), NullableCoder.of(ByteArrayCoder.of()));
  }

  /**
   * Sets what this source needs in the pipeline's options (an emulator's address, say), before
   * the graph is built: options are the runner's, and a transform's expand() should not change
   * them half-way through a build. Nothing by default.
   */
  public void configure(PipelineOptions options) {}
}
