package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.bench.TableVerifier;
import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import io.streamlab.formats.EventHeaders;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.IdentityCollisions;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.testing.JsonEvents;
import io.streamlab.store.postgres.TestPostgres;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17.3: two producers that share identities. The exactly-once identity key drops a row whose
 * (producer id, sequence) is already stored; for a replay of the same event that is the point, for
 * another event it would lose that event silently. Into a real broker go 100 events (producer 7,
 * sequences 0-99), 40 exact replays of some of them (same send time) and 60 other events reusing
 * identities of the first 100 (another send time). One exactly-once ingestion must store each
 * identity once, ignore the 40 replays and dead-letter the other event of each of the 60 collisions
 * with its cause; the run's verification counts them under their own name.
 */
class IdentityCollisionTest {
  private static final int FIRST = 100, REPLAYS = 40, COLLISIONS = 60;
  @TempDir Path dir;

  @Test
  void duckDb() throws Exception {
    collisionsAreDeadLettersAndReplaysAreNot(StoreSpec.duckdb(dir.resolve("c.duckdb")), "events");
  }

  @Test
  void postgres() throws Exception {
    String url = TestPostgres.freshSchemaUrl("collisions"); // starts the local server if down, else skips saying why
    try {
      collisionsAreDeadLettersAndReplaysAreNot(StoreSpec.postgres(url, null), "events");
    } finally {
      TestPostgres.drop(url);
    }
  }

  private void collisionsAreDeadLettersAndReplaysAreNot(StoreSpec store, String table) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      String topic = "shared-identities";
      Topics.create(kafka.bootstrapServers(), topic, 1);
      JsonEvents events = new JsonEvents();
      Schema schema = events.schema();
      long t0 = System.currentTimeMillis() * 1000;
      Map<Long, Long> firstSendTime = new HashMap<>();
      try (KafkaProducer<byte[], byte[]> producer = JsonEvents.producer(kafka.bootstrapServers())) {
        for (int i = 0; i < FIRST; i++) {
          send(producer, topic, events.next(), i, t0 + i);
          firstSendTime.put((long) i, t0 + i);
        }
        for (int i = 0; i < REPLAYS; i++) send(producer, topic, events.next(), i, t0 + i); // same event again
        for (int i = 0; i < COLLISIONS; i++) send(producer, topic, events.next(), 40 + i, t0 + 1_000_000 + i);
        producer.flush();
      }
      Pipeline p = Pipeline.create(new RunnerChoice("DirectRunner", "[local]", 1, 1000, 250, List.of()).toOptions());
      IngestPipeline.build(p, new IngestSettings(kafka.bootstrapServers(), topic, schema, TransportFormat.JSON, store,
          table, 500, (long) FIRST + REPLAYS + COLLISIONS, Duration.ofSeconds(60), Decoding.DEFAULT,
          WriteSettings.of(WriteMethod.STORAGE_WRITE_API, FormatToStore.AVRO_GENERIC_RECORD)));
      p.run().waitUntilFinish();

      try (TableStore s = store.open(); Connection c = s.openQueryConnection(); Statement st = c.createStatement()) {
        Map<Long, Long> stored = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT sl_sequence, sl_send_time_us FROM \"" + table + "\"")) {
          while (rs.next()) assertEquals(null, stored.put(rs.getLong(1), rs.getLong(2)), "sequence " + rs.getLong(1) + " twice");
        }
        Map<Long, Long> deadLettered = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT stage, cause, sl_sequence, sl_send_time_us FROM \"" + table + "_failed\"")) {
          while (rs.next()) {
            assertEquals("write", rs.getString(1));
            assertTrue(rs.getString(2).contains(IdentityCollisions.Collided.class.getName()), rs.getString(2));
            assertEquals(null, deadLettered.put(rs.getLong(3), rs.getLong(4)), "one dead letter per collision");
          }
        }
        assertEquals(firstSendTime.keySet(), stored.keySet(), "every identity once in the table");
        assertEquals(COLLISIONS, deadLettered.size(), "each colliding event is one dead letter, no replay is");
        // which of two events with one identity arrives first is the pipeline's order; the other is the dead letter
        for (long seq = 0; seq < FIRST; seq++) {
          java.util.Set<Long> sendTimes = new java.util.HashSet<>(java.util.List.of(firstSendTime.get(seq)));
          if (seq >= 40) sendTimes.add(t0 + 1_000_000 + seq - 40);
          java.util.Set<Long> found = new java.util.HashSet<>(java.util.List.of(stored.get(seq)));
          if (deadLettered.containsKey(seq)) found.add(deadLettered.get(seq));
          assertEquals(sendTimes, found, "sequence " + seq + ": each event it names is in the table or a dead letter, once");
        }
        try (ResultSet rs = st.executeQuery("SELECT cause FROM \"" + table + "_failed\" WHERE cause LIKE '%identity collision:%'")) {
          assertTrue(rs.next(), "the first dead letter of the cause says what collided");
          assertTrue(rs.getString(1).contains("(producer 7, sequence "), rs.getString(1));
        }
        Map<String, Long> byStage = new HashMap<>();
        try (ResultSet rs = st.executeQuery(TableVerifier.failedOnceSql(table + "_failed"))) {
          while (rs.next()) byStage.put(rs.getString(1), rs.getLong(2));
        }
        assertEquals(Map.of(TableVerifier.COLLISION_STAGE, (long) COLLISIONS), byStage,
            "the verification names collisions apart from other write failures");
      }
    }
  }

  private static void send(KafkaProducer<byte[], byte[]> producer, String topic, byte[] value, long sequence, long sendMicros)
      throws Exception {
    ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, 0, null, value);
    EventHeaders.write(r.headers(), 7, sequence, sendMicros);
    producer.send(r).get();
  }
}
