package io.streamlab.pipeline.source;

/** Which reader {@link KafkaSource} reads the topic with (--kafkaReader). */
public enum KafkaReader {
  /** POLLED on the Flink and direct runners, KAFKAIO on Dataflow ({@link #on}). */
  AUTO,
  /** Beam's KafkaIO: a consumer polling on a thread of its own, records handed over a queue. */
  KAFKAIO,
  /**
   * streamlab's {@link PolledKafkaSource}: the consumer polls on the reading thread, so a record
   * is decoded by the core that has just parsed it. The same offsets, checkpoints and commits as
   * KAFKAIO's; for the Flink and direct runners.
   */
  POLLED;

  /**
   * The reader this choice means on a runner. AUTO takes POLLED where it can run, since it costs
   * less CPU and allocates less per event than KafkaIO's reader (docs/perf-notes.md, step 14), and
   * KafkaIO on Dataflow, which may finalize a checkpoint mark after the reader that made it is
   * gone, when POLLED's mark could no longer commit its offsets.
   */
  public KafkaReader on(boolean dataflow) {
    if (this != AUTO) return this;
    return dataflow ? KAFKAIO : POLLED;
  }
}
