package io.streamlab.cloud.gcp;

import io.streamlab.loadtest.PubSubEndpoint;

/**
 * Everything of a {@code --cloud=gcp} run that talks to Google, one interface per service, so
 * the run is the same code against the real services and against tests' fakes.
 */
public record GcpServices(PubsubService pubsub, BigQueryService bigQuery, DataflowService dataflow)
    implements AutoCloseable {
  /** Opens the services for a plan's project and region. */
  @FunctionalInterface
  public interface Factory {
    GcpServices open(GcpPlan plan) throws Exception;
  }

  /**
   * Google's client libraries, with Application Default Credentials (gcloud auth application-default
   * login); Pub/Sub's at {@code PUBSUB_EMULATOR_HOST} when it is set.
   */
  public static GcpServices real(GcpPlan plan) throws Exception {
    return new GcpServices(RealPubsub.create(plan.project(), PubSubEndpoint.fromEnvironment(System.getenv())),
        RealBigQuery.create(plan.region()),
        new RealDataflow(plan.project(), plan.region()));
  }

  @Override
  public void close() throws Exception {
    try (PubsubService p = pubsub; BigQueryService b = bigQuery; DataflowService d = dataflow) {
      // closed in reverse order, each even if another fails
    }
  }
}
