package io.streamlab.bench;

import io.streamlab.generator.EventGenerator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * How a run's events travel from the generator to the ingestion: a Kafka topic (an embedded
 * broker, or the one of {@code --bootstrapServers}: {@link KafkaTransport}) or a Pub/Sub topic and
 * its subscription ({@code --cloud=gcp}). {@link LabRun} asks it for the topic, the generators
 * and the ingestion's source flags, and never which one it is.
 */
public interface Transport extends AutoCloseable {
  /** Makes the run's topic ready; called once, before anything is generated. */
  void open(Path runDir, String topic, PrintStream out) throws Exception;

  /** A generator of {@code config}'s events into the topic. */
  EventGenerator generator(EventGenerator.Config config);

  /** The {@code streamlab ingest} flags that read the topic. */
  List<String> sourceArgs();

  /**
   * Messages not yet acknowledged by the ingestion's consumer {@code group} (0 = it has read and
   * committed everything), or -1 where not known yet; asked only after restarts (--chaos).
   */
  long unacknowledged(String group);

  @Override
  void close();
}
