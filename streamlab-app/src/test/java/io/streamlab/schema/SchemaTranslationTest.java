package io.streamlab.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.ExampleSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.Schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Thrift IDL, Avro and JSON Schema files -> the canonical Avro schema, and clear errors. */
class SchemaTranslationTest {
  @TempDir Path dir;

  private static Schema field(Schema record, String name) {
    Schema.Field f = record.getField(name);
    if (f == null) throw new AssertionError("no field " + name + " in " + record);
    return f.schema();
  }

  private static Schema nonNull(Schema s) {
    assertTrue(s.isNullable(), s + " should be nullable");
    return s.getTypes().get(1);
  }

  @Test
  void thriftExampleWithIncludesTypedefsEnumsAndContainers() {
    Schema s = ExampleSchemas.load(ExampleSchemas.SIMPLE_THRIFT);
    assertEquals("SimpleEvent", s.getName());
    assertEquals(Type.STRING, field(s, "id").getType(), "typedef common.Uuid -> string");
    assertEquals(Type.LONG, field(s, "timestamp").getType(), "typedef common.EpochMillis -> i64");
    Schema priority = field(s, "priority");
    assertEquals(Type.ENUM, priority.getType());
    assertEquals(List.of("LOW", "NORMAL", "HIGH"), priority.getEnumSymbols());
    assertEquals(List.of(1, 2, 10), priority.getObjectProp(ThriftIdl.ENUM_VALUES));
    assertEquals(Type.BOOLEAN, field(s, "active").getType());
    assertEquals("byte", field(s, "level").getProp(ThriftIdl.INT_TYPE));
    assertEquals("i16", field(s, "shard").getProp(ThriftIdl.INT_TYPE));
    assertEquals(Type.INT, field(s, "count").getType());
    assertEquals(Type.DOUBLE, field(s, "score").getType());
    assertEquals(Type.BYTES, nonNull(field(s, "checksum")).getType());
    assertEquals(Type.STRING, nonNull(field(s, "tags")).getElementType().getType(), "typedef list<string>");
    assertEquals("set", nonNull(field(s, "codes")).getProp(ThriftIdl.CONTAINER));
    assertEquals(Type.LONG, nonNull(field(s, "counters")).getValueType().getType());
    Schema attribute = nonNull(field(s, "attributes")).getElementType();
    assertEquals(Type.RECORD, attribute.getType());
    assertTrue(field(attribute, "value").isNullable());
    assertFalse(field(attribute, "key").isNullable(), "required stays non-null");
    assertEquals("GeoPoint", nonNull(field(s, "origin")).getName(), "struct from the included file");
    assertEquals(16, s.getField("origin").getObjectProp(ThriftIdl.FIELD_ID));
  }

  @Test
  void thriftRootStructCanBeChosen() {
    Schema s = SchemaLoader.load(ExampleSchemas.path(ExampleSchemas.SIMPLE_THRIFT), "Attribute");
    assertEquals("Attribute", s.getName());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SchemaLoader.load(ExampleSchemas.path(ExampleSchemas.SIMPLE_THRIFT), "Nope"));
    assertTrue(e.getMessage().contains("no struct named 'Nope'"), e.getMessage());
  }

  @Test
  void avroExampleLoadsAsIs() {
    Schema s = ExampleSchemas.load(ExampleSchemas.COMPOUND_AVRO);
    assertEquals("CompoundEvent", s.getName());
    assertEquals(Type.FIXED, field(s, "traceId").getType());
    assertEquals(Type.FLOAT, field(nonNull(field(s, "device")), "pixelRatio").getType());
  }

  @Test
  void jsonSchemaExampleBecomesRecordsEnumsMapsAndNullables() {
    Schema s = ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON);
    assertEquals("Message", s.getName());
    assertEquals(Type.STRING, field(s, "messageId").getType(), "required -> not null");
    assertEquals(Type.STRING, nonNull(field(s, "conversationId")).getType(), "type [string, null]");
    assertEquals(Type.LONG, field(s, "sentAt").getType(), "integer -> long");
    Schema author = field(s, "author");
    assertEquals(Type.RECORD, author.getType());
    assertSame(author, nonNull(field(s, "recipients")).getElementType(), "one $ref, one named type");
    assertEquals(List.of("DRAFT", "SENT", "DELIVERED", "READ"), field(s, "status").getEnumSymbols());
    assertEquals(Type.LONG, nonNull(field(s, "priority")).getType(), "oneOf [integer, null]");
    assertEquals(Type.DOUBLE, nonNull(field(s, "sentiment")).getType(), "anyOf [number, null]");
    assertEquals(Type.BYTES, nonNull(field(s, "signature")).getType(), "base64 string -> bytes");
    assertEquals(Type.STRING, nonNull(field(s, "labels")).getValueType().getType(), "additionalProperties -> map");
    Schema attachment = field(s, "attachments").getElementType();
    assertFalse(field(attachment, "sizeBytes").isNullable());
    assertTrue(field(attachment, "mimeType").isNullable());
  }

  private IllegalArgumentException loadFails(String fileName, String content) throws Exception {
    Path f = dir.resolve(fileName);
    Files.writeString(f, content);
    return assertThrows(IllegalArgumentException.class, () -> SchemaLoader.load(f, null));
  }

  @Test
  void unsupportedConstructsNameTheField() throws Exception {
    assertEquals(dir.resolve("a.json") + ": field 'E.mixed': type [\"string\",\"integer\"] mixes types; only [T, \"null\"] is supported",
        loadFails("a.json", "{\"title\": \"E\", \"type\": \"object\", \"properties\": {\"ok\": {\"type\": \"string\"}, "
            + "\"mixed\": {\"type\": [\"string\", \"integer\"]}}}").getMessage());
    assertTrue(loadFails("b.json", "{\"type\": \"object\", \"properties\": {\"inner\": {\"type\": \"object\", \"properties\": "
        + "{\"x\": {\"oneOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}}}}}").getMessage()
        .contains("field 'Event.inner.x': oneOf of 2 non-null schemas"));
    assertTrue(loadFails("c.json", "{\"type\": \"object\", \"properties\": {\"r\": {\"$ref\": \"http://x/y.json\"}}}")
        .getMessage().contains("field 'Event.r': only local $refs"));
    assertTrue(loadFails("d.avsc", "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"u\", "
        + "\"type\": [\"string\", \"int\"]}]}").getMessage().contains("field 'R.u': union [\"string\",\"int\"] is not supported"));
    assertTrue(loadFails("e.thrift", "struct S {\n  1: required string a,\n  2: optional Missing b,\n}\n")
        .getMessage().contains(":3: field 'b' of S: unknown type 'Missing'"));
    assertTrue(loadFails("f.thrift", "struct S {\n  1: required map<i32, string> m,\n}\n")
        .getMessage().contains("field 'm' of S: map keys must be strings"));
    assertTrue(loadFails("g.yaml", "x: 1").getMessage().contains("unknown schema kind"));
    assertTrue(loadFails("h.json", "{not json").getMessage().contains("not valid JSON"));
  }
}
