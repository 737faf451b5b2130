package io.streamlab.testing;

import io.streamlab.broker.Topics;
import java.util.concurrent.TimeUnit;

/** A test's look at a Kafka cluster that start-up already found serving. */
public final class BrokerProbe {
  private BrokerProbe() {}

  /**
   * The brokers the cluster shows ({@link Topics#brokers}), asked again while the query fails, for
   * up to a minute. One query gives up after a few seconds (start-up probes need that, to notice a
   * broker's exit), which a loaded machine can exceed with every broker up. Only a failed query is
   * retried: the first count answered is returned, for the caller to check.
   */
  public static int brokers(String bootstrapServers) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      try {
        return Topics.brokers(bootstrapServers);
      } catch (Exception e) {
        if (System.nanoTime() > deadline) throw e;
        Thread.sleep(500);
      }
    }
  }
}
