package io.streamlab.testing;

import io.streamlab.broker.Topics;
import io.streamlab.cluster.FlinkRest;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** A test's look at a Kafka or Flink cluster that start-up already found serving. */
public final class ClusterProbe {
  private ClusterProbe() {}

  /** The brokers the cluster shows ({@link Topics#brokers}), asked again while the query fails ({@link #answer}). */
  public static int brokers(String bootstrapServers) throws Exception {
    return answer(() -> Topics.brokers(bootstrapServers));
  }

  /** The TaskManagers Flink's REST API shows ({@link FlinkRest#taskManagers}), asked again while the call fails. */
  public static int taskManagers(String flinkMaster) throws Exception {
    FlinkRest rest = new FlinkRest(flinkMaster);
    return answer(rest::taskManagers);
  }

  /**
   * The first answer of {@code query}, asked again while it fails, for up to a minute. One query
   * gives up after a few seconds (start-up probes need that, to notice a member's exit), which a
   * loaded machine can exceed with every member up. Only a failed query is retried: the first
   * answer is returned, for the caller to check.
   */
  static <T> T answer(Callable<T> query) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      try {
        return query.call();
      } catch (Exception e) {
        if (System.nanoTime() > deadline) throw e;
        Thread.sleep(500);
      }
    }
  }
}
