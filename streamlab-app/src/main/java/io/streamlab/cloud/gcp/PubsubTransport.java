package io.streamlab.cloud.gcp;

import io.streamlab.bench.Transport;
import io.streamlab.generator.EventGenerator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@code --cloud=gcp} run's events: published by the generator to the plan's Pub/Sub topic
 * (made by {@link GcpResources}), read by the ingestion from its subscription.
 */
public final class PubsubTransport implements Transport {
  private final PubsubService pubsub;
  private final GcpPlan plan;

  public PubsubTransport(PubsubService pubsub, GcpPlan plan) {
    this.pubsub = pubsub;
    this.plan = plan;
  }

  /** The topic and subscription exist already: they are the run's resources, made before it starts. */
  @Override
  public void open(Path runDir, String topic, PrintStream out) {
    out.println("[streamlab] events go through Pub/Sub: " + plan.topic() + " -> " + plan.subscription());
  }

  @Override
  public EventGenerator generator(EventGenerator.Config config) {
    return new EventGenerator(config, pubsub.publisher(plan.topic()));
  }

  @Override
  public List<String> sourceArgs() {
    return List.of("--source=pubsub", "--subscription=" + plan.subscription());
  }

  /** Pub/Sub keeps no offsets to compare; runs with restarts (--chaos) are refused with --cloud=gcp. */
  @Override
  public long unacknowledged(String group) {
    throw new UnsupportedOperationException("--chaos is not supported with --cloud=gcp");
  }

  @Override
  public void close() {}
}
