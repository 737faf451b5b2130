package io.streamlab.pipeline.source;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.values.PCollection;

/**
 * Where the ingestion pipeline reads its messages: KafkaIO ({@code IngestPipeline.kafka}) or {@link PubsubSource}.
 * Every source hands the front stages the same element, a message's bytes with its headers as a
 * {@link KafkaRecord} (Beam's own coder-backed carrier of both): another broker's messages are
 * translated into one, so decoding, identity and dead letters stay one code path.
 */
public interface Source {
  /** Applies the read (and any translation) to {@code pipeline}; the read step is named {@code "Read"}. */
  PCollection<KafkaRecord<byte[], byte[]>> read(Pipeline pipeline);
}
