package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SystemColumns;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.RandomSchemas;
import io.streamlab.testing.TestValues;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** encode -> decode -> equal, for every transport format, on the example and on random schemas. */
class CodecRoundTripTest {
  private static final GeneratorSettings HALF_EMPTY =
      GeneratorSettings.builder().completeObjects(false).minStringLength(0).maxStringLength(30).maxSizeCollection(4).build();

  static Stream<Arguments> examples() {
    return ExampleSchemas.ALL.stream().flatMap(s -> Arrays.stream(TransportFormat.values()).map(f -> Arguments.of(s, f)));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("examples")
  void exampleSchemasRoundTrip(String schemaFile, TransportFormat format) {
    Schema schema = ExampleSchemas.load(schemaFile);
    roundTrip(schema, format, 300, 11, HALF_EMPTY);
    roundTrip(schema, format, 50, 12, GeneratorSettings.builder().build());
  }

  /** Property: any canonical schema, any format, any record of it survives the trip. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(TransportFormat.class)
  void randomSchemasRoundTrip(TransportFormat format) {
    for (long seed = 0; seed < 300; seed++) {
      Schema schema = RandomSchemas.generate(seed);
      try {
        roundTrip(schema, format, 10, seed, HALF_EMPTY);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ", schema " + schema + ": " + e.getMessage(), e);
      }
    }
  }

  private static void roundTrip(Schema schema, TransportFormat format, int events, long seed, GeneratorSettings settings) {
    RandomRecordFactory factory = new RandomRecordFactory(schema, settings, seed);
    // the decoding side gets the schema as text, as a pipeline worker does
    PayloadCodec writer = format.codec(schema);
    PayloadCodec reader = format.codec(new Schema.Parser().parse(schema.toString()));
    Schema rowSchema = SystemColumns.tableRecordSchema(reader.decode(writer.encode(factory.next())).getSchema());
    int eventFields = schema.getFields().size();
    for (int i = 0; i < events; i++) {
      GenericRecord event = factory.next();
      byte[] bytes = writer.encode(event);
      GenericRecord back = reader.decode(bytes);
      assertEquals(TestValues.normalize(event), TestValues.normalize(back), format + " event " + i);
      // decoded straight into a table record: the same values, the system fields left to the caller
      GenericData.Record row = reader.decodeAs(bytes, rowSchema);
      assertSame(rowSchema, row.getSchema(), format + " event " + i);
      assertEquals(TestValues.normalize(SystemColumns.widened(rowSchema, event)), TestValues.normalize(row), format + " event " + i);
      for (int k = eventFields; k < eventFields + 3; k++) assertNull(row.get(k), format + " event " + i + ", system field " + k);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransportFormat.class)
  void corruptPayloadsAreRejectedWithAnIllegalArgument(TransportFormat format) {
    Schema schema = ExampleSchemas.load(ExampleSchemas.SIMPLE_THRIFT);
    PayloadCodec codec = format.codec(schema);
    byte[] good = codec.encode(new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 1).next());
    assertThrows(IllegalArgumentException.class, () -> codec.decode(Arrays.copyOf(good, good.length / 2)), "truncated");
    byte[] garbage = new byte[64];
    Arrays.fill(garbage, (byte) 0xFF);
    assertThrows(IllegalArgumentException.class, () -> codec.decode(garbage), "garbage");
    Schema row = SystemColumns.tableRecordSchema(schema);
    assertThrows(IllegalArgumentException.class, () -> codec.decodeAs(Arrays.copyOf(good, good.length / 2), row), "truncated, as a row");
    assertThrows(IllegalArgumentException.class, () -> codec.decodeAs(garbage, row), "garbage, as a row");
  }

  @Test
  void jsonNotMatchingTheSchemaNamesTheField() {
    PayloadCodec codec = TransportFormat.JSON.codec(ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> codec.decode("{\"messageId\": 5}".getBytes(StandardCharsets.UTF_8)));
    assertEquals("field 'Message.messageId': expected a string, got VALUE_NUMBER_INT", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> codec.decode("{\"messageId\": \"m\", \"status\": \"GONE\"}".getBytes(StandardCharsets.UTF_8)));
    assertEquals("field 'Message.status': 'GONE' is not one of [DRAFT, SENT, DELIVERED, READ]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> codec.decode("{\"messageId\": \"m\"}".getBytes(StandardCharsets.UTF_8)));
    assertEquals("required field 'Message.sentAt' missing", e.getMessage());
  }
}
