package io.streamlab.pipeline.source;

import io.streamlab.formats.PubsubAttributes;
import io.streamlab.loadtest.PubSubEndpoint;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.beam.sdk.extensions.gcp.auth.GcpCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubOptions;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Instant;

/**
 * A Pub/Sub subscription through Beam's own {@code PubsubIO.readMessagesWithAttributesAndMessageId()}
 * (on Dataflow: the service's native Pub/Sub read). Each message becomes the element every source
 * gives: its data with its attributes as headers ({@link PubsubAttributes}: the event identity and
 * intended send time under the Kafka header names), its message id kept for dead letters, its
 * publish time as the record's timestamp.
 *
 * <p>With {@code PUBSUB_EMULATOR_HOST} set, PubsubIO talks to the emulator at that address without
 * credentials, unless {@code --pubsubRootUrl} or {@code --credentialFactoryClass} say otherwise.
 * Pub/Sub delivers at least once: a message is acknowledged when the runner finalizes the
 * checkpoint that holds it (Flink: enable checkpointing), so a restart can redeliver, never lose.
 */
public final class PubsubSource extends Source {
  private final String subscription;
  private final Map<String, String> env;
  private final UnaryOperator<PubsubIO.Read<PubsubMessage>> customize;

  /** @param subscription {@code projects/P/subscriptions/S} */
  public PubsubSource(String subscription) {
    this(subscription, System.getenv(), UnaryOperator.identity());
  }

  /** @param customize applied to the configured read (tests: Beam's PubsubTestClient via withClientFactory) */
  public PubsubSource(String subscription, Map<String, String> env, UnaryOperator<PubsubIO.Read<PubsubMessage>> customize) {
    if (subscription == null || !subscription.matches("projects/[^/]+/subscriptions/[^/]+")) {
      throw new IllegalArgumentException("--subscription must be projects/PROJECT/subscriptions/SUBSCRIPTION, got: "
          + subscription);
    }
    this.subscription = subscription;
    this.env = env;
    this.customize = customize;
  }

  @Override
  public void configure(PipelineOptions options) {
    useEmulatorIfSet(options.as(PubsubOptions.class));
  }

  @Override
  public PCollection<KafkaRecord<byte[], byte[]>> expand(PBegin begin) {
    PubsubIO.Read<PubsubMessage> read =
        customize.apply(PubsubIO.readMessagesWithAttributesAndMessageId().fromSubscription(subscription));
    return begin.apply("PubsubIO", read)
        .apply("PubsubToMessage", ParDo.of(new ToMessageFn(subscription)))
        .setCoder(messageCoder());
  }

  private void useEmulatorIfSet(PubsubOptions options) {
    PubSubEndpoint endpoint = PubSubEndpoint.fromEnvironment(env);
    if (!endpoint.emulator()) return;
    if (PubsubOptions.targetForRootUrl("https://pubsub.googleapis.com").equals(
        PubsubOptions.targetForRootUrl(options.getPubsubRootUrl()))) {
      options.setPubsubRootUrl("http://" + endpoint.target());
    }
    GcpOptions gcp = options.as(GcpOptions.class);
    if (gcp.getCredentialFactoryClass() == GcpCredentialFactory.class) {
      gcp.setCredentialFactoryClass(NoopCredentialFactory.class); // the emulator takes none
    }
  }

  /** One Pub/Sub message as the front stages' element. */
  static final class ToMessageFn extends DoFn<PubsubMessage, KafkaRecord<byte[], byte[]>> {
    private final String subscription;

    ToMessageFn(String subscription) {
      this.subscription = subscription;
    }

    @ProcessElement
    public void process(@Element PubsubMessage m, @Timestamp Instant publishTime,
        OutputReceiver<KafkaRecord<byte[], byte[]>> out) {
      out.output(new KafkaRecord<>(subscription, 0, -1, publishTime.getMillis(), KafkaTimestampType.LOG_APPEND_TIME,
          PubsubAttributes.toHeaders(m.getAttributeMap(), m.getMessageId()), KV.of(null, m.getPayload())));
    }
  }
}
