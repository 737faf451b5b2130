package io.streamlab.cli;

import io.streamlab.pipeline.FlinkConf;
import io.streamlab.pipeline.source.KafkaReader;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * streamlab's own settings of the runner's work: the ones Beam has no option for. Beam's own
 * (--runner, --parallelism, --maxBundleTimeMills, Dataflow's) are flags under Beam's names
 * ({@link BeamFlags#RUNNER}). Shared by ingest, run and sinkbench.
 */
public interface RunnerOptions extends PipelineOptions {
  @Description("Most rows in one table append.")
  @Default.Integer(50_000)
  int getAppendBatchSize();
  void setAppendBatchSize(int value);

  @Description("Address the embedded Flink's REST API, BLOB server and RPC listen on. Anything but loopback "
      + "lets other hosts read the JVM options and cancel the job (Flink's REST API has no authentication).")
  @Default.String(FlinkConf.LOOPBACK)
  String getBindAddress();
  void setBindAddress(String value);

  @Description("How the Kafka source reads the topic: POLLED, streamlab's reader polling on the pipeline's reading "
      + "thread, so each record is decoded by the core that has just parsed it (Flink and direct runners only); "
      + "KAFKAIO, Beam's KafkaIO (its consumer polls on a thread of its own); both give the same offsets, checkpoints "
      + "and commits. AUTO: POLLED, and KAFKAIO on Dataflow.")
  @Default.Enum("AUTO")
  KafkaReader getKafkaReader();
  void setKafkaReader(KafkaReader value);
}
