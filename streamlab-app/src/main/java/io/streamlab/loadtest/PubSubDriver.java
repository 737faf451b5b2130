package io.streamlab.loadtest;

import com.google.api.core.ApiFutureCallback;
import com.google.api.core.ApiFutures;
import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.batching.FlowController.LimitExceededBehavior;
import com.google.api.gax.core.InstantiatingExecutorProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.AlreadyExistsException;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.ProjectSubscriptionName;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PushConfig;
import com.google.pubsub.v1.TopicName;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.streamlab.formats.PubsubAttributes;
import io.streamlab.formats.EventHeaders.Stamp;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Google Pub/Sub through Google's Java client (google-cloud-pubsub): a {@link com.google.cloud.pubsub.v1.Publisher} per
 * publisher, a streaming-pull {@link com.google.cloud.pubsub.v1.Subscriber} per subscriber, the stamp in message attributes
 * named like the Kafka headers. Honours {@code PUBSUB_EMULATOR_HOST} ({@link PubSubEndpoint}).
 * The settings are built by {@link #batchingSettings()} and {@link #flowControlSettings()} so
 * they can be checked without a network.
 */
public final class PubSubDriver implements BrokerDriver {
  /** Publisher-side limits on unacknowledged messages, so an unlimited rate blocks instead of exhausting memory. */
  static final long PUBLISHER_MAX_OUTSTANDING_BYTES = 256L << 20;
  static final long PUBLISHER_MAX_OUTSTANDING_MESSAGES = 1_000_000;
  static final int ACK_DEADLINE_SECONDS = 60;

  private final String project;
  private final ClientSettings client;
  private final PubSubEndpoint endpoint;
  private final ManagedChannel emulatorChannel;

  public PubSubDriver(String project, ClientSettings client, PubSubEndpoint endpoint) {
    if (project == null || project.isBlank()) throw new IllegalArgumentException("--pubsubProject is required for Pub/Sub");
    this.project = project;
    this.client = client;
    this.endpoint = endpoint;
    // One channel for all clients, created lazily by gRPC: nothing connects until the first call.
    this.emulatorChannel = endpoint.emulator()
        ? ManagedChannelBuilder.forTarget(endpoint.target()).usePlaintext().build() : null;
  }

  @Override
  public String name() {
    return "pubsub";
  }

  /** The client's default batching with what {@link ClientSettings} sets, and blocking publisher flow control. */
  BatchingSettings batchingSettings() {
    BatchingSettings.Builder b = com.google.cloud.pubsub.v1.Publisher.Builder.getDefaultBatchingSettings().toBuilder();
    if (client.batchMaxMessages() > 0) b.setElementCountThreshold(client.batchMaxMessages());
    if (client.batchMaxBytes() > 0) b.setRequestByteThreshold(client.batchMaxBytes());
    if (client.batchMaxDelay() != null) b.setDelayThresholdDuration(client.batchMaxDelay());
    b.setFlowControlSettings(FlowControlSettings.newBuilder()
        .setMaxOutstandingRequestBytes(PUBLISHER_MAX_OUTSTANDING_BYTES)
        .setMaxOutstandingElementCount(PUBLISHER_MAX_OUTSTANDING_MESSAGES)
        .setLimitExceededBehavior(LimitExceededBehavior.Block).build());
    return b.build();
  }

  /** The subscriber's default flow control with what {@link ClientSettings} sets. */
  FlowControlSettings flowControlSettings() {
    FlowControlSettings.Builder f = com.google.cloud.pubsub.v1.Subscriber.Builder.getDefaultFlowControlSettings().toBuilder();
    if (client.maxOutstandingMessages() > 0) f.setMaxOutstandingElementCount(client.maxOutstandingMessages());
    if (client.maxOutstandingBytes() > 0) f.setMaxOutstandingRequestBytes(client.maxOutstandingBytes());
    return f.build();
  }

  /** A publisher of {@code topic} in this driver's project, with its batching and endpoint (also the generator's Pub/Sub sink). */
  public com.google.cloud.pubsub.v1.Publisher.Builder publisherBuilder(String topic) {
    com.google.cloud.pubsub.v1.Publisher.Builder b = com.google.cloud.pubsub.v1.Publisher
        .newBuilder(TopicName.of(project, topic))
        .setBatchingSettings(batchingSettings())
        .setEnableCompression(!"none".equals(client.compression()));
    if (client.clientThreads() > 0) b.setExecutorProvider(executorProvider());
    if (endpoint.emulator()) b.setChannelProvider(channelProvider()).setCredentialsProvider(NoCredentialsProvider.create());
    return b;
  }

  private InstantiatingExecutorProvider executorProvider() {
    return InstantiatingExecutorProvider.newBuilder().setExecutorThreadCount(client.clientThreads()).build();
  }

  com.google.cloud.pubsub.v1.Subscriber.Builder subscriberBuilder(String subscription, MessageHandler handler) {
    com.google.cloud.pubsub.v1.MessageReceiver receiver = (message, reply) -> {
      handler.onMessage(message.getData().size(), stamp(message));
      reply.ack();
    };
    com.google.cloud.pubsub.v1.Subscriber.Builder b = com.google.cloud.pubsub.v1.Subscriber
        .newBuilder(ProjectSubscriptionName.of(project, subscription), receiver)
        .setFlowControlSettings(flowControlSettings());
    if (client.clientThreads() > 0) b.setExecutorProvider(executorProvider());
    if (endpoint.emulator()) b.setChannelProvider(channelProvider()).setCredentialsProvider(NoCredentialsProvider.create());
    return b;
  }

  private TransportChannelProvider channelProvider() {
    return FixedTransportChannelProvider.create(GrpcTransportChannel.create(emulatorChannel));
  }

  /**
   * Settings of a client that creates and deletes topics, on this driver's endpoint: the admin
   * clients do not read {@code PUBSUB_EMULATOR_HOST} themselves, so without these they would go to
   * Google's service, with credentials, while the data went to the emulator.
   */
  public TopicAdminSettings topicAdminSettings() throws IOException {
    TopicAdminSettings.Builder topics = TopicAdminSettings.newBuilder();
    if (endpoint.emulator()) {
      topics.setTransportChannelProvider(channelProvider()).setCredentialsProvider(NoCredentialsProvider.create());
    }
    return topics.build();
  }

  /** The same for subscriptions ({@link #topicAdminSettings}). */
  public SubscriptionAdminSettings subscriptionAdminSettings() throws IOException {
    SubscriptionAdminSettings.Builder subscriptions = SubscriptionAdminSettings.newBuilder();
    if (endpoint.emulator()) {
      subscriptions.setTransportChannelProvider(channelProvider()).setCredentialsProvider(NoCredentialsProvider.create());
    }
    return subscriptions.build();
  }

  @Override
  public void createTopic(String topic, String subscription, int partitions, int largestMessageBytes) throws IOException {
    try (TopicAdminClient admin = TopicAdminClient.create(topicAdminSettings())) {
      admin.createTopic(TopicName.of(project, topic));
    } catch (AlreadyExistsException existing) {
      // kept as it is
    }
    // The subscription must exist before publishing, or Pub/Sub keeps nothing for it.
    try (SubscriptionAdminClient admin = SubscriptionAdminClient.create(subscriptionAdminSettings())) {
      admin.createSubscription(ProjectSubscriptionName.of(project, subscription), TopicName.of(project, topic),
          PushConfig.getDefaultInstance(), ACK_DEADLINE_SECONDS);
    } catch (AlreadyExistsException existing) {
      // kept as it is
    }
  }

  @Override
  public BrokerDriver.Publisher publisher(String topic) throws IOException {
    com.google.cloud.pubsub.v1.Publisher publisher = publisherBuilder(topic).build();
    return new BrokerDriver.Publisher() {
      @Override
      public CompletableFuture<Void> send(byte[] payload, Stamp stamp) {
        CompletableFuture<Void> acked = new CompletableFuture<>();
        ApiFutures.addCallback(publisher.publish(message(payload, stamp)), new ApiFutureCallback<String>() {
          @Override
          public void onSuccess(String messageId) {
            acked.complete(null);
          }

          @Override
          public void onFailure(Throwable error) {
            acked.completeExceptionally(error);
          }
        }, MoreExecutors.directExecutor());
        return acked;
      }

      @Override
      public void flush() {
        publisher.publishAllOutstanding();
      }

      @Override
      public void close() {
        publisher.shutdown();
        try {
          publisher.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  @Override
  public BrokerDriver.Subscriber subscriber(String topic, String subscription, MessageHandler handler) {
    com.google.cloud.pubsub.v1.Subscriber subscriber = subscriberBuilder(subscription, handler).build();
    subscriber.startAsync().awaitRunning();
    return () -> subscriber.stopAsync().awaitTerminated();
  }

  static PubsubMessage message(byte[] payload, Stamp stamp) {
    return PubsubMessage.newBuilder().setData(ByteString.copyFrom(payload))
        .putAllAttributes(PubsubAttributes.of(stamp)).build();
  }

  /** The stamp from the message's attributes; null when it carries none (not written by a load test). */
  static Stamp stamp(PubsubMessage message) {
    return PubsubAttributes.stamp(message.getAttributesMap());
  }

  @Override
  public void close() {
    if (emulatorChannel != null) emulatorChannel.shutdownNow();
  }
}
