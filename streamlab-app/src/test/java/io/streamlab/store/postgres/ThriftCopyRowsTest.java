package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.testing.ExampleSchemas;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * The one-pass Thrift -> COPY row (formatToStore STORE_ROW) against the two passes it replaces:
 * the decoder's table record encoded by {@link PgBinary.Row}. Byte for byte on every event it
 * takes; and what it does not take (another layout, bad bytes) it leaves to the decoder.
 */
class ThriftCopyRowsTest {
  private static final String[] TRICKY = {"", "plain", "quote \" and backslash \\", "new\nline\ttab\r\f\b",
      "control \u0001\u001f", "ümlaut ✓ 𝄞", "0123456789abcdefghij", "\"\"\"\"\"\"\"\"\\\\\\\\\\\\\\\\"};

  /** Every kind a one-pass row has, nullable or not, top level and nested (members of a JSON column). */
  static Schema everyKind() {
    Schema nested = SchemaBuilder.record("Inner").fields()
        .requiredString("s").optionalString("os").requiredLong("l").optionalLong("ol")
        .requiredInt("i").optionalInt("oi").requiredBoolean("b").optionalBoolean("ob").endRecord();
    return SchemaBuilder.record("EveryKind").namespace("test").fields()
        .requiredString("s").optionalString("os").requiredLong("l").optionalLong("ol").requiredInt("i")
        .optionalInt("oi").requiredBoolean("b").optionalBoolean("ob").requiredDouble("d").optionalDouble("od")
        .requiredFloat("f").requiredBytes("by").optionalBytes("oby")
        .name("n").type(nested).noDefault()
        .name("on").type().optional().type(nested)
        .endRecord();
  }

  private static Object value(Schema s, Random r) {
    if (s.isUnion()) return r.nextInt(3) == 0 ? null : value(s.getTypes().get(1), r);
    return switch (s.getType()) {
      case STRING -> TRICKY[r.nextInt(TRICKY.length)] + r.nextInt(1000);
      case LONG -> r.nextInt(4) == 0 ? Long.MIN_VALUE + r.nextInt(3) : r.nextLong();
      case INT -> r.nextInt(4) == 0 ? Integer.MIN_VALUE : r.nextInt();
      case BOOLEAN -> r.nextBoolean();
      case DOUBLE -> r.nextInt(5) == 0 ? Double.NaN : r.nextGaussian() * 1e6;
      case FLOAT -> r.nextFloat();
      case BYTES -> {
        byte[] b = new byte[r.nextInt(20)];
        r.nextBytes(b);
        yield ByteBuffer.wrap(b);
      }
      case RECORD -> {
        GenericData.Record rec = new GenericData.Record(s);
        for (Schema.Field f : s.getFields()) rec.put(f.pos(), value(f.schema(), r));
        yield rec;
      }
      default -> throw new IllegalArgumentException(s.toString());
    };
  }

  private static final Schema EVERY_KIND = everyKind();
  private static final Schema EVERY_KIND_TABLE = SystemColumns.tableRecordSchema(EVERY_KIND);
  private static final PayloadCodec EVERY_KIND_CODEC = TransportFormat.THRIFT.codec(EVERY_KIND);

  /** The row's columns as the two passes write them: decode into the table record, stamp, encode. */
  private static byte[] twoPasses(PayloadCodec codec, Schema table, byte[] payload, int producer, long seq, long sent) {
    CopyBuffer out = new CopyBuffer(1024);
    new PgBinary.Row(table.getFields(), Set.of()).write(out, SystemColumns.stamp(codec.decodeAs(payload, table), producer, seq, sent));
    return Arrays.copyOf(out.array(), out.size());
  }

  private static void sameBytes(Schema event, Iterable<GenericRecord> events) {
    PayloadCodec codec = TransportFormat.THRIFT.codec(event);
    ThriftCopyRows rows = ThriftCopyRows.forEvent(event, codec);
    assertNotNull(rows, "a one-pass form for " + event.getName());
    Schema table = SystemColumns.tableRecordSchema(event);
    int n = 0;
    for (GenericRecord e : events) {
      byte[] payload = codec.encode(e);
      CopyRow row = rows.row(payload, n, 1000L + n, 5_000_000L * n);
      assertNotNull(row, "event " + n + " taken");
      assertArrayEquals(twoPasses(codec, table, payload, n, 1000L + n, 5_000_000L * n), row.columns(), "event " + n + ": " + e);
      n++;
    }
  }

  @Test
  void theDefaultEventIsWrittenByteForByteAsTheTwoPassesWriteIt() {
    Schema event = SchemaLoader.loadDefault();
    RandomRecordFactory random = new RandomRecordFactory(event, GeneratorSettings.builder().build(), 3);
    sameBytes(event, () -> java.util.stream.Stream.generate(random::next).limit(2_000).iterator());
  }

  @Test
  void everyKindNullOrNotIsWrittenByteForByteAsTheTwoPassesWriteIt() {
    Schema event = everyKind();
    Random r = new Random(7);
    sameBytes(event, () -> java.util.stream.Stream.generate(() -> (GenericRecord) value(event, r)).limit(3_000).iterator());
  }

  @Test
  void schemasWithColumnsOfOtherKindsHaveNoOnePassForm() {
    Schema withList = SchemaBuilder.record("L").fields().requiredString("s").name("xs").type().array().items().stringType().noDefault().endRecord();
    Schema withEnum = SchemaBuilder.record("E").fields().name("e").type().enumeration("Color").symbols("RED", "BLUE").noDefault().endRecord();
    Schema deep = SchemaBuilder.record("D").fields().name("a").type(SchemaBuilder.record("A").fields()
        .name("b").type(SchemaBuilder.record("B").fields().requiredString("c").endRecord()).noDefault().endRecord()).noDefault().endRecord();
    for (Schema s : new Schema[] {withList, withEnum, deep}) {
      assertNull(ThriftCopyRows.forEvent(s, null), s.getName());
    }
    // of the examples, the default event has one; the JSON Schema example (arrays) has none
    assertNotNull(ThriftCopyRows.forEvent(ExampleSchemas.load(ExampleSchemas.DEFAULT_THRIFT), null));
    assertNull(ThriftCopyRows.forEvent(ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON), null));
  }

  /**
   * Bytes changed at random: whatever the one pass takes, the decoder reads, into the same row;
   * what it leaves, the decoder reads or refuses. Both outcomes must occur, or the test proves nothing.
   */
  @Test
  void whatItTakesOfDamagedBytesTheDecoderReadsIntoTheSameRow() {
    Schema event = EVERY_KIND, table = EVERY_KIND_TABLE;
    PayloadCodec codec = EVERY_KIND_CODEC;
    ThriftCopyRows rows = ThriftCopyRows.forEvent(event, codec);
    Random r = new Random(11);
    int taken = 0, left = 0, refusedByDecoder = 0;
    for (int n = 0; n < 20_000; n++) {
      byte[] payload = codec.encode((GenericRecord) value(event, r));
      int changes = 1 + r.nextInt(3);
      for (int k = 0; k < changes; k++) payload[r.nextInt(payload.length)] = (byte) r.nextInt(256);
      if (r.nextInt(10) == 0) payload = Arrays.copyOf(payload, r.nextInt(payload.length));
      CopyRow row = rows.row(payload, 1, n, 2);
      byte[] expected;
      try {
        expected = twoPasses(codec, table, payload, 1, n, 2);
      } catch (IllegalArgumentException refused) {
        assertNull(row, "event " + n + ": taken, but the decoder refuses it: " + refused.getMessage());
        refusedByDecoder++;
        continue;
      }
      if (row == null) {
        left++;
      } else {
        taken++;
        assertArrayEquals(expected, row.columns(), "event " + n);
      }
    }
    assertTrue(taken > 100 && left > 100 && refusedByDecoder > 100, taken + " taken, " + left + " left to a decoder that reads them, "
        + refusedByDecoder + " refused by the decoder");
  }

  @Test
  void fieldsInAnotherOrderOrUnknownAreLeftToTheDecoder() {
    Schema event = SchemaBuilder.record("Two").fields().requiredString("a").requiredLong("b").endRecord();
    ThriftCopyRows rows = ThriftCopyRows.forEvent(event, TransportFormat.THRIFT.codec(event));
    CopyBuffer inOrder = new CopyBuffer(64), reversed = new CopyBuffer(64), unknown = new CopyBuffer(64);
    field(inOrder, 11, 1).putInt(1);
    inOrder.put((byte) 'x');
    field(inOrder, 10, 2).putLong(5);
    inOrder.put((byte) 0);
    field(reversed, 10, 2).putLong(5);
    field(reversed, 11, 1).putInt(1);
    reversed.put((byte) 'x');
    reversed.put((byte) 0);
    unknown.put(inOrder.array(), 0, inOrder.size() - 1);
    field(unknown, 8, 9).putInt(77);
    unknown.put((byte) 0);
    assertNotNull(rows.row(Arrays.copyOf(inOrder.array(), inOrder.size()), 1, 2, 3));
    assertNull(rows.row(Arrays.copyOf(reversed.array(), reversed.size()), 1, 2, 3));
    assertNull(rows.row(Arrays.copyOf(unknown.array(), unknown.size()), 1, 2, 3));
    byte[] badText = Arrays.copyOf(inOrder.array(), inOrder.size());
    badText[7] = (byte) 0xC3; // a truncated two-byte sequence
    assertNull(rows.row(badText, 1, 2, 3));
  }

  private static CopyBuffer field(CopyBuffer b, int type, int id) {
    b.put((byte) type);
    b.putShort(id);
    return b;
  }

  @Test
  void aCopyRowIsTheDecodedRecordToEveryoneElse() {
    Schema event = EVERY_KIND, table = EVERY_KIND_TABLE;
    PayloadCodec codec = EVERY_KIND_CODEC;
    ThriftCopyRows rows = ThriftCopyRows.forEvent(event, codec);
    GenericRecord e = (GenericRecord) value(event, new Random(5));
    byte[] payload = codec.encode(e);
    CopyRow row = rows.row(payload, 4, 40L, 400L);
    GenericData.Record decoded = SystemColumns.stamp(codec.decodeAs(payload, table), 4, 40L, 400L);
    assertEquals(4, row.get(SystemColumns.PRODUCER_ID));
    assertEquals(40L, row.get(table.getField(SystemColumns.SEQUENCE).pos()));
    assertEquals(row, decoded); // (GenericData.Record's equals takes only its own class)
    assertEquals(decoded.toString(), row.toString());
    for (int i = 0; i < table.getFields().size(); i++) assertEquals(decoded.get(i), row.get(i), table.getFields().get(i).name());
    assertNotNull(row.columns());
    row.put("s", "changed");
    assertNull(row.columns(), "a changed row is encoded again by the writer");
    assertEquals("changed", row.get("s").toString());
  }
}
