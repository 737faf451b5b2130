package io.streamlab.store.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.streamlab.schema.SystemColumns;
import io.streamlab.store.IdentityCollisions;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** Repeats of an identity within one batch: the same event is dropped, another event collides. */
class RepeatedIdentitiesTest {
  private static final Schema TABLE = SystemColumns.tableRecordSchema(
      SchemaBuilder.record("e").fields().requiredString("name").endRecord());
  private static final int PID = TABLE.getField(SystemColumns.PRODUCER_ID).pos();
  private static final int SEQ = TABLE.getField(SystemColumns.SEQUENCE).pos();
  private static final int SEND = TABLE.getField(SystemColumns.SEND_TIME_MICROS).pos();

  @Test
  void aBatchWithoutRepeatsIsReturnedAsItIs() throws Exception {
    List<GenericRecord> rows = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      for (long s = 0; s < 5_000; s++) rows.add(row(p, s, 7)); // the same sequences under other producers
    }
    assertSame(rows, RepeatedIdentities.dropped(rows, PID, SEQ, SEND));
  }

  @Test
  void theSameEventTwiceIsKeptOnceInItsPlace() throws Exception {
    List<GenericRecord> rows = new ArrayList<>(List.of(row(1, 10, 100), row(1, 11, 110), row(1, 10, 100),
        row(2, 10, 200), row(1, 11, 110), row(1, 12, 120)));
    List<GenericRecord> kept = RepeatedIdentities.dropped(rows, PID, SEQ, SEND);
    assertEquals(List.of(rows.get(0), rows.get(1), rows.get(3), rows.get(5)), kept);
  }

  @Test
  void anotherEventWithATakenIdentityIsACollisionAndNothingIsDropped() {
    List<GenericRecord> rows = List.of(row(1, 10, 100), row(1, 10, 100), row(1, 10, 999), row(1, 11, 110));
    IdentityCollisions.Found found = assertThrows(IdentityCollisions.Found.class,
        () -> RepeatedIdentities.dropped(rows, PID, SEQ, SEND));
    assertEquals(List.of(new IdentityCollisions.Collision(1, 10, 100, 999)), found.collisions());
  }

  private static GenericRecord row(int producer, long sequence, long sent) {
    GenericRecord r = new GenericData.Record(TABLE);
    r.put("name", "e" + sequence);
    r.put(SystemColumns.PRODUCER_ID, producer);
    r.put(SystemColumns.SEQUENCE, sequence);
    r.put(SystemColumns.SEND_TIME_MICROS, sent);
    return r;
  }
}
