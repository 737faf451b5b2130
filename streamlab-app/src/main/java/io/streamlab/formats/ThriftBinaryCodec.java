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
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
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

  private transient Out out;

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
    if (out == null) out = new Out();
    out.pos = 0;
    compiled().write(out, event);
    return java.util.Arrays.copyOf(out.buf, out.pos);
  }

  @Override
  public GenericRecord decode(byte[] payload) {
    return decodeAs(payload, compiled().schema);
  }

  /** The event's struct read into a record of {@code recordSchema} (the event's own, or its table record's). */
  @Override
  public GenericData.Record decodeAs(byte[] payload, Schema recordSchema) {
    try {
      // The binary protocol read straight from the payload ({@link In}), not through TProtocol:
      // no virtual transport call and bounds check per byte read.
      return compiled().read(new In(payload, maxNestingDepth), recordSchema);
    } catch (TException | RuntimeException e) {
      throw new IllegalArgumentException("not a valid Thrift " + compiled().schema.getName() + ": " + e, e);
    }
  }

  /**
   * An event's bytes and the read position: TBinaryProtocol's reads on an array, with its checks
   * (a size is never negative nor more than the bytes left, so a hostile size cannot allocate).
   * Unknown fields are skipped by Thrift's own code ({@link #skip}), bounded in depth.
   */
  static final class In {
    final byte[] buf;
    int pos;
    final int end;
    final int maxDepth;

    In(byte[] buf, int maxDepth) {
      this.buf = buf;
      this.end = buf.length;
      this.maxDepth = maxDepth;
    }

    private void need(int n) throws TTransportException {
      if (n > end - pos) {
        throw new TTransportException(TTransportException.END_OF_FILE,
            "truncated: " + n + " bytes needed at offset " + pos + ", " + (end - pos) + " left");
      }
    }

    byte readByte() throws TTransportException {
      need(1);
      return buf[pos++];
    }

    short readI16() throws TTransportException {
      need(2);
      short v = (short) (((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF));
      pos += 2;
      return v;
    }

    int readI32() throws TTransportException {
      need(4);
      int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
      pos += 4;
      return v;
    }

    long readI64() throws TTransportException {
      need(8);
      long v = ((long) readI32() << 32);
      return v | (readI32() & 0xFFFFFFFFL);
    }

    /** A string's or binary's length: not negative, not beyond the bytes left. */
    int readLength() throws TException {
      int size = readI32();
      if (size < 0) throw new TProtocolException(TProtocolException.NEGATIVE_SIZE, "Negative length: " + size);
      if (size > end - pos) {
        throw new TTransportException(TTransportException.END_OF_FILE, "a string of " + size + " bytes where " + (end - pos) + " are left");
      }
      return size;
    }

    /** A container's element count, bounded by the bytes left at {@code minBytes} per element. */
    int readCount(int minBytes) throws TException {
      int size = readI32();
      if (size < 0) throw new TProtocolException(TProtocolException.NEGATIVE_SIZE, "Negative length: " + size);
      if ((long) size * minBytes > end - pos) {
        throw new TProtocolException(TProtocolException.SIZE_LIMIT,
            "a container of " + size + " elements where " + (end - pos) + " bytes are left");
      }
      return size;
    }

    /** The smallest encoding of a value of Thrift type {@code type} (a struct: its STOP byte). */
    static int minBytes(byte type) {
      return switch (type) {
        case TType.BOOL, TType.BYTE, TType.STRUCT -> 1;
        case TType.I16 -> 2;
        case TType.I32, TType.STRING -> 4;
        case TType.I64, TType.DOUBLE -> 8;
        case TType.LIST, TType.SET -> 5;
        case TType.MAP -> 6;
        default -> 1;
      };
    }

    /** A string in place in the message (see {@link Utf8Slice}: no copy per string). */
    Utf8Slice readUtf8() throws TException {
      int size = readLength();
      TextCheck.utf8(buf, pos, size);
      Utf8Slice s = new Utf8Slice(buf, pos, size);
      pos += size;
      return s;
    }

    /** An unknown or retyped field, skipped by Thrift's code to a bounded depth. */
    void skip(byte type) throws TException {
      TMemoryInputTransport t = new TMemoryInputTransport(buf, pos, end - pos);
      ThriftBinaryCodec.skip(new SkipDepth(t, end - pos, maxDepth), type);
      pos = t.getBufferPosition();
    }
  }

  /**
   * TBinaryProtocol's writes (big-endian, strict: no message header) straight into an array that
   * grows as needed, as {@link In} reads: no transport call and no temporary buffer per value. The
   * generator encodes every event it sends, on the cores the pipeline it feeds runs on, and
   * through TProtocol the encoding was most of the generator's CPU (docs/perf-notes.md, "machine
   * AG"). {@code ThriftBinaryCodecWriteTest} holds its bytes to libthrift's own TBinaryProtocol.
   */
  static final class Out {
    byte[] buf = new byte[16 << 10];
    int pos;

    private void need(int n) {
      if (n <= buf.length - pos) return;
      long size = Math.max((long) buf.length * 2, (long) pos + n);
      if (size > MAX_EVENT_BYTES) throw new IllegalArgumentException("event larger than " + MAX_EVENT_BYTES + " bytes");
      buf = java.util.Arrays.copyOf(buf, (int) size);
    }

    void writeByte(byte v) {
      need(1);
      buf[pos++] = v;
    }

    void writeI16(short v) {
      need(2);
      buf[pos] = (byte) (v >>> 8);
      buf[pos + 1] = (byte) v;
      pos += 2;
    }

    void writeI32(int v) {
      need(4);
      buf[pos] = (byte) (v >>> 24);
      buf[pos + 1] = (byte) (v >>> 16);
      buf[pos + 2] = (byte) (v >>> 8);
      buf[pos + 3] = (byte) v;
      pos += 4;
    }

    void writeI64(long v) {
      writeI32((int) (v >>> 32));
      writeI32((int) v);
    }

    /** A string or binary: its length, then its bytes. */
    void writeBinary(byte[] b, int offset, int length) {
      writeI32(length);
      need(length);
      System.arraycopy(b, offset, buf, pos, length);
      pos += length;
    }

    /** A field's header: its type and id. */
    void writeFieldBegin(byte type, short id) {
      writeByte(type);
      writeI16(id);
    }

    /** A list's or set's header: its element type and size. */
    void writeContainerBegin(byte elementType, int size) {
      writeByte(elementType);
      writeI32(size);
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

  // ---- the compiled schema ----

  private interface Node {
    byte ttype();

    void write(Out out, Object value);

    Object read(In in) throws TException;
  }

  private static Node compile(Schema s, Map<String, StructNode> records) {
    switch (s.getType()) {
      case STRING:
        // Strings are not decoded into java.lang.String (decoded from UTF-8 here, encoded back by
        // every consumer) nor copied into a Utf8 each: they stay in the message (Utf8Slice).
        return new Prim(TType.STRING) {
          public void write(Out out, Object v) {
            if (v instanceof Utf8 u) out.writeBinary(u.getBytes(), 0, u.getByteLength());
            else if (v instanceof Utf8Slice u) out.writeBinary(u.array(), u.offset(), u.byteLength());
            else {
              byte[] b = v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
              out.writeBinary(b, 0, b.length);
            }
          }
          public Object read(In in) throws TException { return in.readUtf8(); }
        };
      case BYTES:
        return new Prim(TType.STRING) {
          public void write(Out out, Object v) {
            ByteBuffer b = (ByteBuffer) v;
            if (b.hasArray()) {
              out.writeBinary(b.array(), b.arrayOffset() + b.position(), b.remaining());
            } else {
              byte[] copy = new byte[b.remaining()];
              b.duplicate().get(copy);
              out.writeBinary(copy, 0, copy.length);
            }
          }
          public Object read(In in) throws TException {
            int size = in.readLength();
            ByteBuffer b = ByteBuffer.wrap(in.buf, in.pos, size); // a view, as TBinaryProtocol.readBinary gives
            in.pos += size;
            return b;
          }
        };
      case LONG:
        return new Prim(TType.I64) {
          public void write(Out out, Object v) { out.writeI64((Long) v); }
          public Object read(In in) throws TException { return in.readI64(); }
        };
      case INT: {
        String t = s.getProp(ThriftIdl.INT_TYPE);
        if ("i16".equals(t)) {
          return new Prim(TType.I16) {
            public void write(Out out, Object v) { out.writeI16(((Integer) v).shortValue()); }
            public Object read(In in) throws TException { return (int) in.readI16(); }
          };
        }
        if ("byte".equals(t)) {
          return new Prim(TType.BYTE) {
            public void write(Out out, Object v) { out.writeByte(((Integer) v).byteValue()); }
            public Object read(In in) throws TException { return (int) in.readByte(); }
          };
        }
        return new Prim(TType.I32) {
          public void write(Out out, Object v) { out.writeI32((Integer) v); }
          public Object read(In in) throws TException { return in.readI32(); }
        };
      }
      case BOOLEAN:
        return new Prim(TType.BOOL) {
          public void write(Out out, Object v) { out.writeByte((Boolean) v ? (byte) 1 : (byte) 0); }
          public Object read(In in) throws TException { return in.readByte() == 1; }
        };
      case DOUBLE:
        return new Prim(TType.DOUBLE) {
          public void write(Out out, Object v) { out.writeI64(Double.doubleToLongBits((Double) v)); }
          public Object read(In in) throws TException { return Double.longBitsToDouble(in.readI64()); }
        };
      case FLOAT: // Thrift has no 32-bit float: travels as double, exact for every float
        return new Prim(TType.DOUBLE) {
          public void write(Out out, Object v) { out.writeI64(Double.doubleToLongBits((Float) v)); }
          public Object read(In in) throws TException { return (float) Double.longBitsToDouble(in.readI64()); }
        };
      case FIXED:
        return new Prim(TType.STRING) {
          public void write(Out out, Object v) {
            byte[] b = ((GenericFixed) v).bytes();
            out.writeBinary(b, 0, b.length);
          }
          public Object read(In in) throws TException {
            int size = in.readLength();
            if (size != s.getFixedSize()) throw new IllegalArgumentException(s.getName() + ": expected " + s.getFixedSize() + " bytes, got " + size);
            byte[] a = java.util.Arrays.copyOfRange(in.buf, in.pos, in.pos + size);
            in.pos += size;
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

    public void write(Out out, Object v) {
      out.writeI32(values[schema.getEnumOrdinal(v.toString())]);
    }

    public Object read(In in) throws TException {
      int v = in.readI32();
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

    public void write(Out out, Object v) {
      Collection<?> c = (Collection<?>) v;
      out.writeContainerBegin(element.ttype(), c.size()); // a set's header is a list's
      for (Object o : c) element.write(out, o);
    }

    public Object read(In in) throws TException {
      byte type = in.readByte();
      int size = in.readCount(In.minBytes(type));
      if (type != element.ttype() && size > 0) throw new IllegalArgumentException("container element type " + type + " != " + element.ttype());
      List<Object> items = new ArrayList<>(size);
      for (int i = 0; i < size; i++) items.add(element.read(in));
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

    public void write(Out out, Object v) {
      Map<?, ?> m = (Map<?, ?>) v;
      out.writeByte(key.ttype());
      out.writeContainerBegin(value.ttype(), m.size());
      for (Map.Entry<?, ?> e : m.entrySet()) {
        key.write(out, e.getKey());
        value.write(out, e.getValue());
      }
    }

    public Object read(In in) throws TException {
      byte keyType = in.readByte();
      byte valueType = in.readByte();
      int size = in.readCount(In.minBytes(keyType) + In.minBytes(valueType));
      if (size > 0 && (keyType != key.ttype() || valueType != value.ttype())) {
        throw new IllegalArgumentException("map key/value types " + keyType + "/" + valueType + " != " + key.ttype() + "/" + value.ttype());
      }
      Map<Object, Object> m = new HashMap<>(Math.max(4, size * 2));
      for (int i = 0; i < size; i++) m.put(key.read(in), value.read(in));
      return m;
    }
  }

  static final class StructNode implements Node {
    private final Schema schema;
    private short[] ids;
    private Node[] nodes;
    private TField[] tfields;
    private boolean[] nullable;
    // Per field, read without a call through Node: its Thrift type, and how the common kinds
    // (string, i64, struct) are read. Node has many classes, so each such call was a dispatch the
    // JIT could not inline, twice per field of every event (docs/perf-notes.md, step 5).
    private byte[] ttypes;
    private byte[] kinds;
    private static final byte OTHER = 0, STRING = 1, I64 = 2, STRUCT = 3;
    private final Map<Short, Integer> posById = new HashMap<>();
    private int[] posByIdSmall; // ids 0..127 looked up without boxing

    StructNode(Schema schema) {
      this.schema = schema;
    }

    void compileFields(Map<String, StructNode> records) {
      List<Schema.Field> fields = schema.getFields();
      int n = fields.size();
      ids = new short[n];
      nodes = new Node[n];
      tfields = new TField[n];
      nullable = new boolean[n];
      ttypes = new byte[n];
      kinds = new byte[n];
      posByIdSmall = new int[128];
      java.util.Arrays.fill(posByIdSmall, -1);
      for (int i = 0; i < n; i++) {
        Schema.Field f = fields.get(i);
        ids[i] = ThriftIdl.fieldId(f);
        Schema type = f.schema();
        if (type.isUnion()) {
          nullable[i] = true;
          type = type.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst()
              .orElseThrow(() -> new IllegalArgumentException("field " + f.name() + " is only null"));
        }
        nodes[i] = compile(type, records);
        ttypes[i] = nodes[i].ttype();
        kinds[i] = switch (type.getType()) {
          case STRING -> STRING;
          case LONG -> I64;
          default -> nodes[i] instanceof StructNode ? STRUCT : OTHER;
        };
        tfields[i] = new TField(f.name(), ttypes[i], ids[i]);
        posById.put(ids[i], i);
        if (ids[i] >= 0 && ids[i] < 128) posByIdSmall[ids[i]] = i;
      }
    }

    public byte ttype() { return TType.STRUCT; }

    public void write(Out out, Object v) {
      GenericRecord r = (GenericRecord) v;
      for (int i = 0; i < nodes.length; i++) {
        Object value = r.get(i);
        if (value == null) {
          if (nullable[i]) continue;
          throw new IllegalArgumentException("required field '" + tfields[i].name + "' of " + schema.getName() + " is null");
        }
        out.writeFieldBegin(ttypes[i], ids[i]);
        nodes[i].write(out, value);
      }
      out.writeByte(TType.STOP);
    }

    public Object read(In in) throws TException {
      return read(in, schema);
    }

    /** The struct's fields into a new record of {@code recordSchema}: this struct's schema, or one that starts with its fields. */
    GenericData.Record read(In in, Schema recordSchema) throws TException {
      GenericData.Record r = new GenericData.Record(recordSchema);
      while (true) {
        byte type = in.readByte();
        if (type == TType.STOP) break;
        short id = in.readI16();
        int pos = id >= 0 && id < 128 ? posByIdSmall[id] : posById.getOrDefault(id, -1);
        if (pos < 0 || ttypes[pos] != type) {
          in.skip(type); // unknown or retyped field: skip it, as Thrift code does, to a bounded depth
        } else {
          switch (kinds[pos]) {
            case STRING -> r.put(pos, in.readUtf8());
            case I64 -> r.put(pos, in.readI64());
            case STRUCT -> r.put(pos, ((StructNode) nodes[pos]).read(in));
            default -> r.put(pos, nodes[pos].read(in));
          }
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
