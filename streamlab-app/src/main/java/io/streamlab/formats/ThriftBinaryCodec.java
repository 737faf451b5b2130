package io.streamlab.formats;

import io.streamlab.schema.ThriftIdl;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
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
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TByteBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * Thrift binary protocol for any struct, driven by the canonical Avro schema and the thrift.*
 * properties {@link ThriftIdl} puts on it: the bytes are what Thrift-generated code writes and
 * reads. The schema is compiled once into a tree of {@link Node}s, so no field is looked up by
 * name per event.
 */
public final class ThriftBinaryCodec extends SchemaDrivenCodec<ThriftBinaryCodec.StructNode> {
  private static final int MAX_EVENT_BYTES = 64 << 20;

  private transient ByteBuffer out;

  /** Default bound on nesting while skipping unknown fields ({@code --maxNestingDepth}). */
  public static final int DEFAULT_MAX_NESTING_DEPTH = TransportFormat.DEFAULT_MAX_NESTING_DEPTH;

  private final int maxNestingDepth;

  public ThriftBinaryCodec(Schema schema) {
    this(schema, DEFAULT_MAX_NESTING_DEPTH);
  }

  /**
   * @param maxNestingDepth deepest nesting of an unknown (skipped) field: Thrift's own skip
   *     recurses without a bound, so a few KB of nested struct headers would overflow the stack.
   *     Known fields nest no deeper than the schema, which has no recursion.
   */
  public ThriftBinaryCodec(Schema schema, int maxNestingDepth) {
    super(schema);
    if (maxNestingDepth < 1) throw new IllegalArgumentException("--maxNestingDepth must be >= 1, got " + maxNestingDepth);
    this.maxNestingDepth = maxNestingDepth;
  }

  @Override
  StructNode compile(Schema schema) {
    return (StructNode) compile(schema, new HashMap<>());
  }

  @Override
  public byte[] encode(GenericRecord event) {
    if (out == null) out = ByteBuffer.allocate(16 << 10);
    while (true) {
      out.clear();
      try {
        TProtocol p = new TBinaryProtocol(new TByteBuffer(out));
        compiled().write(p, event);
        byte[] bytes = new byte[out.position()];
        out.flip();
        out.get(bytes);
        return bytes;
      } catch (TTransportException full) {
        if (out.capacity() >= MAX_EVENT_BYTES) throw new IllegalArgumentException("event larger than " + MAX_EVENT_BYTES + " bytes", full);
        out = ByteBuffer.allocate(out.capacity() * 2);
      } catch (TException e) {
        throw new IllegalArgumentException("cannot encode event: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public GenericRecord decode(byte[] payload) {
    try {
      // TMemoryInputTransport exposes its array, so strings are read in place (TByteBuffer
      // copies each into a fresh array first; FormatsBenchmark: 54 k -> 300 k events/s per core)
      TProtocol p = new SkipDepth(new TMemoryInputTransport(payload), payload.length, maxNestingDepth);
      return (GenericRecord) compiled().read(p);
    } catch (TException | RuntimeException e) {
      throw new IllegalArgumentException("not a valid Thrift " + compiled().schema.getName() + ": " + e, e);
    }
  }

  /** The binary protocol, carrying the bound on how deep an unknown field may nest. */
  private static final class SkipDepth extends TBinaryProtocol {
    final int maxDepth;

    SkipDepth(TTransport t, int lengthLimit, int maxDepth) {
      super(t, lengthLimit, lengthLimit);
      this.maxDepth = maxDepth;
    }
  }

  private static void skip(TProtocol p, byte type) throws TException {
    try {
      TProtocolUtil.skip(p, type, ((SkipDepth) p).maxDepth);
    } catch (TException e) {
      if (String.valueOf(e.getMessage()).contains("depth")) {
        throw new IllegalArgumentException("an unknown field nests deeper than " + ((SkipDepth) p).maxDepth
            + " levels (--maxNestingDepth)", e);
      }
      throw e;
    }
  }

  /**
   * A string's bytes, copied once out of the payload (decode always reads from a
   * TMemoryInputTransport, which holds the whole event); no ByteBuffer view as readBinary makes.
   */
  private static byte[] readBytes(TProtocol p) throws TException {
    int size = p.readI32();
    TTransport t = p.getTransport();
    if (size < 0 || size > t.getBytesRemainingInBuffer()) {
      throw new TTransportException(TTransportException.END_OF_FILE,
          "a string of " + size + " bytes where " + t.getBytesRemainingInBuffer() + " are left");
    }
    int from = t.getBufferPosition();
    byte[] bytes = java.util.Arrays.copyOfRange(t.getBuffer(), from, from + size);
    t.consumeBuffer(size);
    return bytes;
  }

  // ---- the compiled schema ----

  private interface Node {
    byte ttype();

    void write(TProtocol p, Object value) throws TException;

    Object read(TProtocol p) throws TException;
  }

  private static Node compile(Schema s, Map<String, StructNode> records) {
    switch (s.getType()) {
      case STRING:
        // Strings are decoded into Avro's Utf8 (the bytes as they came, copied once) rather than
        // java.lang.String: a String is decoded from UTF-8 here and encoded back to UTF-8 by
        // every consumer (Arrow, the Avro coder of a shuffle, PostgreSQL COPY).
        return new Prim(TType.STRING) {
          public void write(TProtocol p, Object v) throws TException {
            if (v instanceof Utf8 u) p.writeBinary(ByteBuffer.wrap(u.getBytes(), 0, u.getByteLength()));
            else p.writeString(v.toString());
          }
          public Object read(TProtocol p) throws TException {
            byte[] bytes = readBytes(p);
            TextCheck.utf8(bytes, 0, bytes.length);
            return new Utf8(bytes);
          }
        };
      case BYTES:
        return new Prim(TType.STRING) {
          public void write(TProtocol p, Object v) throws TException { p.writeBinary(((ByteBuffer) v).duplicate()); }
          public Object read(TProtocol p) throws TException { return p.readBinary(); }
        };
      case LONG:
        return new Prim(TType.I64) {
          public void write(TProtocol p, Object v) throws TException { p.writeI64((Long) v); }
          public Object read(TProtocol p) throws TException { return p.readI64(); }
        };
      case INT: {
        String t = s.getProp(ThriftIdl.INT_TYPE);
        if ("i16".equals(t)) {
          return new Prim(TType.I16) {
            public void write(TProtocol p, Object v) throws TException { p.writeI16(((Integer) v).shortValue()); }
            public Object read(TProtocol p) throws TException { return (int) p.readI16(); }
          };
        }
        if ("byte".equals(t)) {
          return new Prim(TType.BYTE) {
            public void write(TProtocol p, Object v) throws TException { p.writeByte(((Integer) v).byteValue()); }
            public Object read(TProtocol p) throws TException { return (int) p.readByte(); }
          };
        }
        return new Prim(TType.I32) {
          public void write(TProtocol p, Object v) throws TException { p.writeI32((Integer) v); }
          public Object read(TProtocol p) throws TException { return p.readI32(); }
        };
      }
      case BOOLEAN:
        return new Prim(TType.BOOL) {
          public void write(TProtocol p, Object v) throws TException { p.writeBool((Boolean) v); }
          public Object read(TProtocol p) throws TException { return p.readBool(); }
        };
      case DOUBLE:
        return new Prim(TType.DOUBLE) {
          public void write(TProtocol p, Object v) throws TException { p.writeDouble((Double) v); }
          public Object read(TProtocol p) throws TException { return p.readDouble(); }
        };
      case FLOAT: // Thrift has no 32-bit float: travels as double, exact for every float
        return new Prim(TType.DOUBLE) {
          public void write(TProtocol p, Object v) throws TException { p.writeDouble((Float) v); }
          public Object read(TProtocol p) throws TException { return (float) p.readDouble(); }
        };
      case FIXED:
        return new Prim(TType.STRING) {
          public void write(TProtocol p, Object v) throws TException { p.writeBinary(ByteBuffer.wrap(((GenericFixed) v).bytes())); }
          public Object read(TProtocol p) throws TException {
            ByteBuffer b = p.readBinary();
            if (b.remaining() != s.getFixedSize()) throw new IllegalArgumentException(s.getName() + ": expected " + s.getFixedSize() + " bytes, got " + b.remaining());
            byte[] a = new byte[b.remaining()];
            b.get(a);
            return new GenericData.Fixed(s, a);
          }
        };
      case ENUM:
        return new EnumNode(s);
      case ARRAY:
        return new ListNode(compile(s.getElementType(), records), "set".equals(s.getProp(ThriftIdl.CONTAINER)));
      case MAP:
        return new MapNode(compile(Schema.create(Schema.Type.STRING), records), compile(s.getValueType(), records));
      case RECORD: {
        StructNode existing = records.get(s.getFullName());
        if (existing != null) return existing;
        StructNode node = new StructNode(s);
        records.put(s.getFullName(), node);
        node.compileFields(records);
        return node;
      }
      default:
        throw new IllegalArgumentException("no Thrift type for Avro " + s.getType() + " (" + s + ")");
    }
  }

  private abstract static class Prim implements Node {
    private final byte ttype;

    Prim(byte ttype) {
      this.ttype = ttype;
    }

    @Override
    public byte ttype() {
      return ttype;
    }
  }

  private static final class EnumNode implements Node {
    private final Schema schema;
    private final int[] values;
    private final Map<Integer, GenericData.EnumSymbol> byValue = new HashMap<>();

    EnumNode(Schema schema) {
      this.schema = schema;
      List<String> symbols = schema.getEnumSymbols();
      Object props = schema.getObjectProp(ThriftIdl.ENUM_VALUES);
      values = new int[symbols.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = props instanceof List<?> l ? ((Number) l.get(i)).intValue() : i;
        byValue.put(values[i], new GenericData.EnumSymbol(schema, symbols.get(i)));
      }
    }

    public byte ttype() { return TType.I32; }

    public void write(TProtocol p, Object v) throws TException {
      p.writeI32(values[schema.getEnumOrdinal(v.toString())]);
    }

    public Object read(TProtocol p) throws TException {
      int v = p.readI32();
      GenericData.EnumSymbol s = byValue.get(v);
      if (s == null) throw new IllegalArgumentException("value " + v + " is not in enum " + schema.getName());
      return s;
    }
  }

  private static final class ListNode implements Node {
    private final Node element;
    private final boolean set;

    ListNode(Node element, boolean set) {
      this.element = element;
      this.set = set;
    }

    public byte ttype() { return set ? TType.SET : TType.LIST; }

    public void write(TProtocol p, Object v) throws TException {
      Collection<?> c = (Collection<?>) v;
      if (set) p.writeSetBegin(new TSet(element.ttype(), c.size()));
      else p.writeListBegin(new TList(element.ttype(), c.size()));
      for (Object o : c) element.write(p, o);
      if (set) p.writeSetEnd();
      else p.writeListEnd();
    }

    public Object read(TProtocol p) throws TException {
      int size;
      byte type;
      if (set) {
        TSet s = p.readSetBegin();
        size = s.size;
        type = s.elemType;
      } else {
        TList l = p.readListBegin();
        size = l.size;
        type = l.elemType;
      }
      if (type != element.ttype() && size > 0) throw new IllegalArgumentException("container element type " + type + " != " + element.ttype());
      List<Object> items = new ArrayList<>(size);
      for (int i = 0; i < size; i++) items.add(element.read(p));
      return items;
    }
  }

  private static final class MapNode implements Node {
    private final Node key;
    private final Node value;

    MapNode(Node key, Node value) {
      this.key = key;
      this.value = value;
    }

    public byte ttype() { return TType.MAP; }

    public void write(TProtocol p, Object v) throws TException {
      Map<?, ?> m = (Map<?, ?>) v;
      p.writeMapBegin(new TMap(key.ttype(), value.ttype(), m.size()));
      for (Map.Entry<?, ?> e : m.entrySet()) {
        key.write(p, e.getKey());
        value.write(p, e.getValue());
      }
      p.writeMapEnd();
    }

    public Object read(TProtocol p) throws TException {
      TMap tm = p.readMapBegin();
      Map<Object, Object> m = new HashMap<>(Math.max(4, tm.size * 2));
      for (int i = 0; i < tm.size; i++) m.put(key.read(p), value.read(p));
      return m;
    }
  }

  static final class StructNode implements Node {
    private final Schema schema;
    private final TStruct struct;
    private short[] ids;
    private Node[] nodes;
    private TField[] tfields;
    private boolean[] nullable;
    private final Map<Short, Integer> posById = new HashMap<>();
    private int[] posByIdSmall; // ids 0..127 looked up without boxing

    StructNode(Schema schema) {
      this.schema = schema;
      this.struct = new TStruct(schema.getName());
    }

    void compileFields(Map<String, StructNode> records) {
      List<Schema.Field> fields = schema.getFields();
      int n = fields.size();
      ids = new short[n];
      nodes = new Node[n];
      tfields = new TField[n];
      nullable = new boolean[n];
      posByIdSmall = new int[128];
      java.util.Arrays.fill(posByIdSmall, -1);
      for (int i = 0; i < n; i++) {
        Schema.Field f = fields.get(i);
        Object id = f.getObjectProp(ThriftIdl.FIELD_ID);
        ids[i] = id instanceof Number num ? num.shortValue() : (short) (i + 1);
        Schema type = f.schema();
        if (type.isUnion()) {
          nullable[i] = true;
          type = type.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst()
              .orElseThrow(() -> new IllegalArgumentException("field " + f.name() + " is only null"));
        }
        nodes[i] = compile(type, records);
        tfields[i] = new TField(f.name(), nodes[i].ttype(), ids[i]);
        posById.put(ids[i], i);
        if (ids[i] >= 0 && ids[i] < 128) posByIdSmall[ids[i]] = i;
      }
    }

    public byte ttype() { return TType.STRUCT; }

    public void write(TProtocol p, Object v) throws TException {
      GenericRecord r = (GenericRecord) v;
      p.writeStructBegin(struct);
      for (int i = 0; i < nodes.length; i++) {
        Object value = r.get(i);
        if (value == null) {
          if (nullable[i]) continue;
          throw new IllegalArgumentException("required field '" + tfields[i].name + "' of " + schema.getName() + " is null");
        }
        p.writeFieldBegin(tfields[i]);
        nodes[i].write(p, value);
        p.writeFieldEnd();
      }
      p.writeFieldStop();
      p.writeStructEnd();
    }

    public Object read(TProtocol p) throws TException {
      GenericData.Record r = new GenericData.Record(schema);
      // The binary protocol's field header (type byte, then id unless STOP) read directly:
      // readFieldBegin() allocates a TField per field, 8 % of the ingestion's allocations.
      while (true) {
        byte type = p.readByte();
        if (type == TType.STOP) break;
        short id = p.readI16();
        int pos = id >= 0 && id < 128 ? posByIdSmall[id] : posById.getOrDefault(id, -1);
        if (pos < 0 || nodes[pos].ttype() != type) {
          skip(p, type); // unknown or retyped field: skip it, as Thrift code does, to a bounded depth
        } else {
          r.put(pos, nodes[pos].read(p));
        }
      }
      for (int i = 0; i < nodes.length; i++) {
        if (!nullable[i] && r.get(i) == null) {
          throw new IllegalArgumentException("required field '" + tfields[i].name + "' of " + schema.getName() + " missing");
        }
      }
      return r;
    }
  }
}
