package io.streamlab.pipeline.source;

/** Which reader {@link KafkaSource} reads the topic with (--kafkaReader). */
public enum KafkaReader {
  /** Beam's KafkaIO: a consumer polling on a thread of its own, records handed over a queue. */
  KAFKAIO,
  /**
   * streamlab's {@link PolledKafkaSource}: the consumer polls on the reading thread, so a record
   * is decoded by the core that has just parsed it. The same offsets, checkpoints and commits as
   * KAFKAIO's; for the Flink and direct runners.
   */
  POLLED
}
