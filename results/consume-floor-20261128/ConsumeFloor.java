import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.EventKey;
import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The floor under a Kafka source: CPU per event of one thread polling N preloaded default events
 * (4 partitions, the pipeline's consumer settings) and reading each value's bytes once, with the
 * values copied into arrays (ByteArrayDeserializer, what KafkaIO's consumer does) or as slices of
 * the fetch buffer (ByteBufferDeserializer). Alternated passes over the same topic, each a new group.
 */
public class ConsumeFloor {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    Path dir = Files.createTempDirectory("cf");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir)) {
      String servers = kafka.bootstrapServers();
      Topics.create(servers, "events", 4);
      Schema schema = SchemaLoader.loadDefault();
      PayloadCodec codec = TransportFormat.THRIFT.codec(schema);
      RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 42);
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
      p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
      p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
      p.put("partitioner.ignore.keys", "true");
      long bytes = 0;
      try (KafkaProducer<byte[], byte[]> prod = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < n; i++) {
          byte[] v = codec.encode(f.next());
          bytes += v.length;
          prod.send(new ProducerRecord<>("events", EventKey.of(new EventHeaders.Stamp(1, i, 1)), v));
        }
      }
      System.out.printf("preloaded %,d events, %,d value bytes%n", n, bytes);
      String[] order = {"copy", "slice", "slice", "copy", "copy", "slice"};
      for (int pass = 0; pass < order.length; pass++) {
        boolean slice = order[pass].equals("slice");
        if (slice) consume(servers, "g" + pass, n, new ByteBufferDeserializer(), order[pass]);
        else consume(servers, "g" + pass, n, new ByteArrayDeserializer(), order[pass]);
      }
    }
  }

  static <V> void consume(String servers, String group, int n, Deserializer<V> values, String label) {
    Map<String, Object> c = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ConsumerConfig.GROUP_ID_CONFIG, group,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000,
        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20);
    var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().getId();
    try (KafkaConsumer<byte[], V> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), values)) {
      consumer.subscribe(List.of("events"));
      long seen = 0, sum = 0, cpu0 = -1, alloc0 = 0, wall0 = 0;
      int warm = n / 10;
      while (seen < n) {
        ConsumerRecords<byte[], V> rs = consumer.poll(Duration.ofMillis(500));
        for (ConsumerRecord<byte[], V> r : rs) {
          if (seen == warm) {
            cpu0 = mx.getCurrentThreadCpuTime();
            alloc0 = mx.getThreadAllocatedBytes(tid);
            wall0 = System.nanoTime();
          }
          seen++;
          V v = r.value();
          if (v instanceof byte[] b) {
            for (int i = 0; i < b.length; i += 64) sum += b[i];
          } else {
            ByteBuffer b = (ByteBuffer) v;
            for (int i = b.position(); i < b.limit(); i += 64) sum += b.get(i);
          }
        }
      }
      long cpu = mx.getCurrentThreadCpuTime() - cpu0, alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
      long measured = n - warm;
      System.out.printf("%-5s %,d events: %.0f ns CPU per event (this thread), %,d bytes allocated per event, %.0f k events/s, checksum %d%n",
          label, measured, (double) cpu / measured, alloc / measured, measured / ((System.nanoTime() - wall0) / 1e9) / 1000, sum);
    }
  }
}
