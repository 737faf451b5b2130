package io.streamlab.pipeline;

import io.streamlab.pipeline.source.KafkaReader;
import io.streamlab.pipeline.source.KafkaSource;
import io.streamlab.pipeline.source.Source;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteStage;
import io.streamlab.pipeline.write.WriteTarget;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The ingestion pipeline, three composite transforms:
 * <pre>
 * "Read"   {@link Source}        PBegin                          -> PCollection&lt;KafkaRecord&gt;   (Kafka by default, or Pub/Sub)
 * "Decode" {@link FrontStages}   PCollection&lt;KafkaRecord&gt;       -> {@link RowsWithDeadLetters}   (unbatch/decompress -> decode -> UDF)
 * "Write"  {@link WriteStage#of} {@link RowsWithDeadLetters}     -> PDone                       (one transform per write method)
 * </pre>
 * Failures of any stage go to {@code <table>_failed}. The runner's options are set before any
 * of them is applied ({@link #configure}).
 */
public final class IngestPipeline {
  private IngestPipeline() {}

  /** The pipeline reading the settings' Kafka topic through KafkaIO. */
  public static void build(Pipeline pipeline, IngestSettings s) {
    build(pipeline, s, kafka(s, KafkaReader.KAFKAIO));
  }

  /** The pipeline reading {@code source} (the settings' Kafka fields are then unused). */
  public static void build(Pipeline pipeline, IngestSettings s, Source source) {
    configure(pipeline.getOptions(), s, source);
    pipeline
        .apply("Read", source)
        .apply("Decode", new FrontStages(s.eventSchema(), s.format(), s.decoding(), s.write().formatToStore() == FormatToStore.STORE_ROW))
        .apply("Write", WriteStage.of(target(s), s.write()));
  }

  /**
   * What the settings ask of the runner (checkpoints, BigQueryIO's options) and what the source
   * needs; before the graph is built, since the runner reads them only when the pipeline runs.
   */
  public static void configure(PipelineOptions options, IngestSettings s, Source source) {
    WriteStage.configure(options, s.store(), s.write());
    source.configure(options);
  }

  /** The table the settings write to. */
  public static WriteTarget target(IngestSettings s) {
    return new WriteTarget(s.store(), s.table(), FrontStages.tableSchema(s.eventSchema()), s.appendBatchSize());
  }

  /**
   * The settings' Kafka topic, read by {@code reader}. A restarted keyed write first moves its
   * committed offsets back (RestartRewind), which the runner of the pipeline does before it runs:
   * building never contacts the broker.
   */
  public static Source kafka(IngestSettings s, KafkaReader reader) {
    return KafkaSource.of(s, reader);
  }
}
