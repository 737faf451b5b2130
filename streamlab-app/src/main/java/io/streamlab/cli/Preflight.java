package io.streamlab.cli;

import io.streamlab.store.JdbcUrls;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;

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

  /** The broker answers within {@code timeout} and has the topic (else the existing ones are listed). */
  static void topicExists(String bootstrapServers, String topic, Duration timeout) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
    Set<String> topics;
    try (Admin admin = Admin.create(p)) {
      topics = new TreeSet<>(admin.listTopics(new ListTopicsOptions().timeoutMs(ms)).names()
          .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS));
    } catch (TimeoutException | ExecutionException e) {
      throw new IllegalArgumentException("the Kafka broker at " + bootstrapServers + " did not answer within "
          + timeout.toSeconds() + " s (--brokerTimeout): " + rootMessage(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reaching the broker");
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
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String m = root.getMessage();
    return root.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
