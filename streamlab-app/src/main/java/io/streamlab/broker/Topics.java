package io.streamlab.broker;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Topic administration against any Kafka cluster, embedded or given with --bootstrapServers. */
public final class Topics {
  private Topics() {}

  static Admin admin(String bootstrapServers) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
  }

  /** Creates the topic (the cluster's default replication) unless it exists already. */
  public static void create(String bootstrapServers, String topic, int partitions) throws Exception {
    create(bootstrapServers, topic, partitions, Map.of());
  }

  /**
   * Creates the topic with topic-level configs (e.g. {@code max.message.bytes} for large
   * messages) unless it exists already; an existing topic keeps its configs.
   */
  public static void create(String bootstrapServers, String topic, int partitions, Map<String, String> configs)
      throws Exception {
    try (Admin admin = admin(bootstrapServers)) {
      admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty()).configs(configs)))
          .all().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create topic '" + topic + "' on " + bootstrapServers + ": " + e.getCause().getMessage(), e);
      }
    }
  }
}
