package io.streamlab.cli;

import io.streamlab.store.Causes;
import io.streamlab.store.JdbcUrls;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * What ingestion needs, checked before the pipeline starts. Inside a running Flink job each of
 * these failures is a task failure, and the job restarts and fails again: an unusable store
 * path, a topic that does not exist or a broker nobody answers on became a restart loop (or a
 * reader that waits for ever) with the cause buried in stack traces. Here each is one line and
 * exit 2.
 */
final class Preflight {
  private Preflight() {}

  /** The store opens (a DuckDB file can be created, a PostgreSQL server answers). */
  static void storeOpens(StoreSpec spec) {
    if (spec.kind() == StoreSpec.Kind.BIGQUERY) return; // BigQueryIO reports its own errors
    try (TableStore s = spec.undecorated().open()) {
      s.openQueryConnection().close();
    } catch (Exception e) {
      throw new IllegalArgumentException("the store " + spec + " cannot be opened: " + JdbcUrls.mask(rootMessage(e)));
    }
  }

  /**
   * The broker answers {@code kafka} within {@code timeout} and has the topic (else the existing
   * ones are listed). {@code kafka} is the ingestion's own consumer (RestartRewind.consumer), the
   * one client of start-up.
   */
  static void topicExists(Consumer<?, ?> kafka, String bootstrapServers, String topic, Duration timeout) {
    Set<String> topics = new TreeSet<>();
    try {
      // Kafka's own topics (__consumer_offsets, ...) are no user's: left out of the list
      kafka.listTopics(timeout).keySet().stream().filter(t -> !t.startsWith("__")).forEach(topics::add);
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      throw new IllegalArgumentException("the Kafka broker at " + bootstrapServers + " did not answer within "
          + timeout.toSeconds() + " s (--brokerTimeout): " + rootMessage(e));
    }
    if (!topics.contains(topic)) {
      throw new IllegalArgumentException("the topic '" + topic + "' does not exist on " + bootstrapServers
          + " (existing topics: " + (topics.isEmpty() ? "none" : String.join(", ", topics)) + ")");
    }
  }

  static void positive(String flag, Duration d) {
    if (d != null && (d.isZero() || d.isNegative())) throw new IllegalArgumentException(flag + " must be > 0, got " + d);
  }

  static void notNegative(String flag, Duration d) {
    if (d != null && d.isNegative()) throw new IllegalArgumentException(flag + " must be >= 0, got " + d);
  }

  static void atLeast(Map<String, ? extends Number> values, long min) {
    values.forEach((flag, v) -> {
      if (v != null && v.doubleValue() < min) throw new IllegalArgumentException(flag + " must be >= " + min + ", got " + v);
    });
  }

  /** The innermost cause's message: what went wrong, without the layers that carried it. */
  static String rootMessage(Throwable e) {
    Throwable root = Causes.root(e);
    String m = root.getMessage();
    return root.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
