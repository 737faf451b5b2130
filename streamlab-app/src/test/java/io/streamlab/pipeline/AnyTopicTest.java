package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.JsonEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own topic (issue 16.3): JSON events written by a plain KafkaProducer, without any of
 * streamlab's headers, into a real embedded broker. Each row's identity must be its partition and
 * offset (producer id -1 - partition, sequence = offset) and its send time the record timestamp;
 * a bad message is a dead letter under its offset identity; and an exactly-once ingestion that
 * reads the whole topic a second time into the same table adds nothing.
 */
class AnyTopicTest {
  private static final int EVENTS = 200;
  @TempDir Path dir;

  @Test
  void messagesWithoutStreamlabHeadersGetOffsetIdentityAndRecordTime() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      String topic = "users-own";
      Topics.create(kafka.bootstrapServers(), topic, 2);
      JsonEvents events = new JsonEvents();
      Schema schema = events.schema();
      Map<String, Long> timeByIdentity = new HashMap<>();
      java.util.Set<String> badIdentities = new java.util.TreeSet<>();
      long base = System.currentTimeMillis() - 60_000;
      try (KafkaProducer<byte[], byte[]> producer = JsonEvents.producer(kafka.bootstrapServers())) {
        for (int i = 0; i < EVENTS; i++) {
          RecordMetadata md = producer.send(new ProducerRecord<>(topic, i % 2, base + i, (byte[]) null, events.next())).get();
          timeByIdentity.put((-1 - md.partition()) + "/" + md.offset(), (base + i) * 1000);
        }
        for (int partition = 0; partition < 2; partition++) { // one each: KafkaIO splits --maxRecords evenly
          RecordMetadata bad = producer.send(new ProducerRecord<>(topic, partition, base, (byte[]) null,
              "{not json".getBytes(StandardCharsets.UTF_8))).get();
          badIdentities.add((-1 - bad.partition()) + "/" + bad.offset());
        }
      }

      Path db = dir.resolve("users.duckdb");
      WriteSettings exactlyOnce = WriteSettings.of(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD);
      ingest(kafka, topic, schema, StoreSpec.duckdb(db), exactlyOnce);
      // the same file under another name is another consumer group: the whole topic is read again
      Files.createDirectories(dir.resolve("again"));
      ingest(kafka, topic, schema, StoreSpec.duckdb(dir.resolve("again/../users.duckdb")), exactlyOnce);

      try (TableStore s = StoreSpec.duckdb(db).open(); Connection c = s.openQueryConnection();
          Statement st = c.createStatement()) {
        Map<String, Long> found = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT sl_producer_id, sl_sequence, sl_send_time_us FROM events")) {
          while (rs.next()) {
            Long before = found.put(rs.getInt(1) + "/" + rs.getLong(2), rs.getLong(3));
            assertEquals(null, before, "identity " + rs.getInt(1) + "/" + rs.getLong(2) + " twice");
          }
        }
        assertEquals(timeByIdentity, found, "identity = (partition, offset), send time = record timestamp");
        java.util.Set<String> failed = new java.util.TreeSet<>();
        try (ResultSet rs = st.executeQuery("SELECT sl_producer_id || '/' || sl_sequence, stage FROM events_failed")) {
          while (rs.next()) {
            failed.add(rs.getString(1));
            assertEquals("decode", rs.getString(2));
          }
        }
        assertEquals(badIdentities, failed, "the bad messages are dead letters under their offset identity");
      }
    }
  }

  private static void ingest(EmbeddedKafka kafka, String topic, Schema schema, StoreSpec store, WriteSettings w) {
    Pipeline p = Pipeline.create(new RunnerChoice("DirectRunner", "[local]", 2, 1000, 250, List.of()).toOptions());
    IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), topic, schema, TransportFormat.JSON, store,
        "events", 500, (long) EVENTS + 2, Duration.ofSeconds(60), Decoding.DEFAULT, w));
    p.run().waitUntilFinish();
  }
}
