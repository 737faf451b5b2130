package io.streamlab.broker;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Topic administration against any Kafka cluster, embedded or given with --bootstrapServers. */
public final class Topics {
  private static final int LEADER_WAIT_SECONDS = 60;

  private Topics() {}

  static Admin admin(String bootstrapServers) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
  }

  /**
   * The brokers the cluster shows now (one try, up to 5 s). Start-up probes call it in a loop; the
   * call and the client's close are bounded, since a port held by another program accepts the
   * connection and never answers, and a plain close() would wait out the call's 30 s API timeout
   * before the probe could see that the broker had exited.
   */
  public static int brokers(String bootstrapServers) throws Exception {
    Admin admin = admin(bootstrapServers);
    try {
      return admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000)).nodes().get(5, TimeUnit.SECONDS).size();
    } finally {
      admin.close(Duration.ofSeconds(1));
    }
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
      int created = partitions;
      try {
        admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty()).configs(configs)))
            .all().get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IllegalStateException("cannot create topic '" + topic + "' on " + bootstrapServers + ": " + e.getCause().getMessage(), e);
        }
        created = admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic).partitions().size();
      }
      awaitLeaders(admin, topic, created);
    }
  }

  /**
   * Returns once the leader of each of the topic's partitions serves it. A new topic is in the
   * cluster's metadata a moment before its brokers lead its partitions, and an idempotent producer
   * must not write into that moment: if its first request to a partition is refused
   * (NOT_LEADER_OR_FOLLOWER) while the next one, already in flight, is accepted, every retry of
   * the first fails with OUT_OF_ORDER_SEQUENCE_NUMBER until delivery.timeout.ms drops its records,
   * and the partition begins with a later record (KAFKA-15591; brokers from Kafka 4.5 refuse the
   * second request instead). A leader answers ListOffsets only for a partition it leads, as it
   * does Produce, and the admin client asks again until it does. Before that, the broker it asks
   * for the partitions' leaders may not know the topic yet (a broker applies the controller's
   * metadata a moment after the topic was created): the admin client gives up on an unknown topic
   * at once, so this asks again, for up to 60 s in all.
   */
  static void awaitLeaders(Admin admin, String topic, int partitions) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LEADER_WAIT_SECONDS);
    while (true) {
      long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
      try {
        admin.listOffsets(latest(topic, IntStream.range(0, partitions)), new ListOffsetsOptions().timeoutMs((int) leftMs))
            .all().get(leftMs + 30_000, TimeUnit.MILLISECONDS);
        return;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException && System.nanoTime() < deadline) {
          Thread.sleep(100);
          continue;
        }
        throw noLeader(topic, e.getCause());
      } catch (TimeoutException e) {
        throw noLeader(topic, e);
      }
    }
  }

  private static IllegalStateException noLeader(String topic, Throwable cause) {
    return new IllegalStateException("topic '" + topic + "' was created, but not every partition has a serving leader"
        + " (waited up to " + LEADER_WAIT_SECONDS + " s): " + cause.getMessage(), cause);
  }

  /** A ListOffsets request for the latest offset of each of the topic's given partitions. */
  private static Map<TopicPartition, OffsetSpec> latest(String topic, IntStream partitions) {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    partitions.forEach(p -> latest.put(new TopicPartition(topic, p), OffsetSpec.latest()));
    return latest;
  }

  /**
   * Messages of the topic beyond the consumer group's committed offsets (all of them if the group
   * has committed nothing): 0 means the group has durably consumed everything written so far.
   */
  public static long committedLag(String bootstrapServers, String group, String topic) throws Exception {
    try (Admin admin = admin(bootstrapServers)) {
      var partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
          .get(topic).partitions();
      var ends = admin.listOffsets(latest(topic, partitions.stream().mapToInt(p -> p.partition())))
          .all().get(30, TimeUnit.SECONDS);
      var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
      long lag = 0;
      for (var e : ends.entrySet()) {
        var c = committed.get(e.getKey());
        lag += e.getValue().offset() - (c == null ? 0 : c.offset());
      }
      return lag;
    }
  }
}
