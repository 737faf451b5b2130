package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.ThriftIdl;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.RandomSchemas;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.Test;

/**
 * The codec writes the binary protocol itself, straight into an array; these tests hold every
 * byte it writes to libthrift's own {@link TBinaryProtocol}, driven here through the same
 * schema-to-Thrift mapping (field ids, integer widths, enum values, sets), for random records of
 * the example schemas and of random schemas: every Thrift type, absent optional fields, empty and
 * full containers.
 */
class ThriftBinaryCodecWriteTest {
  private static final GeneratorSettings HALF_EMPTY =
      GeneratorSettings.builder().completeObjects(false).minStringLength(0).maxStringLength(30).maxSizeCollection(4).build();

  @Test
  void theExampleSchemasEncodeAsTBinaryProtocolWrites() throws TException {
    for (String file : ExampleSchemas.ALL) {
      Schema schema = ExampleSchemas.load(file);
      sameBytes(schema, 300, 7, HALF_EMPTY);
      sameBytes(schema, 100, 8, GeneratorSettings.builder().build());
    }
  }

  @Test
  void randomSchemasEncodeAsTBinaryProtocolWrites() throws TException {
    for (long seed = 0; seed < 300; seed++) {
      Schema schema = RandomSchemas.generate(seed);
      try {
        sameBytes(schema, 10, seed, HALF_EMPTY);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ", schema " + schema + ": " + e.getMessage(), e);
      }
    }
  }

  @Test
  void aRequiredFieldLeftNullIsRefusedByName() {
    Schema schema = ExampleSchemas.load(ExampleSchemas.SIMPLE_THRIFT);
    GenericData.Record r = new GenericData.Record(schema);
    ThriftBinaryCodec codec = new ThriftBinaryCodec(schema, 64);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(r));
    assertTrue(e.getMessage().contains("required field"), e.getMessage());
  }

  @Test
  void anEventLargerThanTheBufferGrowsIt() throws TException {
    Schema schema = org.apache.avro.SchemaBuilder.record("Big").fields().requiredString("text").endRecord();
    GenericData.Record r = new GenericData.Record(schema);
    r.put(0, new Utf8("x".repeat(100_000))); // more than the writer's first array
    assertArrayEquals(reference(schema, r), new ThriftBinaryCodec(schema, 64).encode(r));
  }

  private static void sameBytes(Schema schema, int events, long seed, GeneratorSettings settings) throws TException {
    RandomRecordFactory factory = new RandomRecordFactory(schema, settings, seed);
    ThriftBinaryCodec codec = new ThriftBinaryCodec(schema, 64);
    for (int i = 0; i < events; i++) {
      GenericRecord r = factory.next();
      assertArrayEquals(reference(schema, r), codec.encode(r), "event " + i + ": " + r);
    }
  }

  /** libthrift's bytes for the record. */
  private static byte[] reference(Schema schema, GenericRecord r) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(1024);
    writeStruct(new TBinaryProtocol(buffer), schema, r);
    return java.util.Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  private static void writeStruct(TProtocol p, Schema schema, GenericRecord r) throws TException {
    p.writeStructBegin(new TStruct(schema.getName()));
    for (Schema.Field f : schema.getFields()) {
      Object v = r.get(f.pos());
      if (v == null) continue;
      Schema type = nonNull(f.schema());
      p.writeFieldBegin(new TField(f.name(), ttype(type), ThriftIdl.fieldId(f)));
      write(p, type, v);
      p.writeFieldEnd();
    }
    p.writeFieldStop();
    p.writeStructEnd();
  }

  private static void write(TProtocol p, Schema s, Object v) throws TException {
    switch (s.getType()) {
      case STRING -> p.writeString(v.toString());
      case BYTES -> p.writeBinary(((ByteBuffer) v).duplicate());
      case FIXED -> p.writeBinary(ByteBuffer.wrap(((GenericFixed) v).bytes()));
      case LONG -> p.writeI64((Long) v);
      case INT -> {
        String t = s.getProp(ThriftIdl.INT_TYPE);
        if ("i16".equals(t)) p.writeI16(((Integer) v).shortValue());
        else if ("byte".equals(t)) p.writeByte(((Integer) v).byteValue());
        else p.writeI32((Integer) v);
      }
      case BOOLEAN -> p.writeBool((Boolean) v);
      case DOUBLE -> p.writeDouble((Double) v);
      case FLOAT -> p.writeDouble((Float) v);
      case ENUM -> {
        int ordinal = s.getEnumOrdinal(v.toString());
        Object values = s.getObjectProp(ThriftIdl.ENUM_VALUES);
        p.writeI32(values instanceof List<?> l ? ((Number) l.get(ordinal)).intValue() : ordinal);
      }
      case ARRAY -> {
        Collection<?> c = (Collection<?>) v;
        Schema element = nonNull(s.getElementType());
        if ("set".equals(s.getProp(ThriftIdl.CONTAINER))) p.writeSetBegin(new TSet(ttype(element), c.size()));
        else p.writeListBegin(new TList(ttype(element), c.size()));
        for (Object o : c) write(p, element, o);
      }
      case MAP -> {
        Map<?, ?> m = (Map<?, ?>) v;
        Schema value = nonNull(s.getValueType());
        p.writeMapBegin(new TMap(TType.STRING, ttype(value), m.size()));
        for (Map.Entry<?, ?> e : m.entrySet()) {
          p.writeString(e.getKey().toString());
          write(p, value, e.getValue());
        }
      }
      case RECORD -> writeStruct(p, s, (GenericRecord) v);
      default -> throw new IllegalArgumentException("no Thrift type for " + s);
    }
  }

  private static byte ttype(Schema s) {
    return switch (s.getType()) {
      case STRING, BYTES, FIXED -> TType.STRING;
      case LONG -> TType.I64;
      case INT -> "i16".equals(s.getProp(ThriftIdl.INT_TYPE)) ? TType.I16
          : "byte".equals(s.getProp(ThriftIdl.INT_TYPE)) ? TType.BYTE : TType.I32;
      case BOOLEAN -> TType.BOOL;
      case DOUBLE, FLOAT -> TType.DOUBLE;
      case ENUM -> TType.I32;
      case ARRAY -> "set".equals(s.getProp(ThriftIdl.CONTAINER)) ? TType.SET : TType.LIST;
      case MAP -> TType.MAP;
      case RECORD -> TType.STRUCT;
      default -> throw new IllegalArgumentException("no Thrift type for " + s);
    };
  }

  private static Schema nonNull(Schema s) {
    return s.isUnion() ? s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow() : s;
  }

}
