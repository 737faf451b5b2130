package io.streamlab.testing;

import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Random events of the example JSON schema as message bytes, for tests that write a topic
 * themselves with a plain producer (a user's own topic, crafted headers) instead of the generator.
 */
public final class JsonEvents {
  private final Schema schema = ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON);
  private final PayloadCodec json = TransportFormat.JSON.codec(schema);
  private final RandomRecordFactory records = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 1);

  public Schema schema() {
    return schema;
  }

  /** The next random event, JSON-encoded. */
  public byte[] next() throws Exception {
    return json.encode(records.next());
  }

  /** A producer of raw bytes into {@code bootstrapServers}, without any of streamlab's headers. */
  public static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    return new KafkaProducer<>(Map.of("bootstrap.servers", bootstrapServers,
        "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class));
  }
}
