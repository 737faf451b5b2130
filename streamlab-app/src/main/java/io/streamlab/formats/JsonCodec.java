package io.streamlab.formats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Events as plain JSON objects, the way a JSON Schema describes them: a nullable field is the
 * value or {@code null} (not Avro's {@code {"string": ...}} union wrapping), enums are their
 * symbol, maps are objects, bytes are base64 strings. Decoding checks the document against the
 * schema as it streams (types, enum symbols, required fields) and names the offending field.
 * Unknown properties are skipped, as JSON consumers usually do.
 */
public final class JsonCodec extends SchemaDrivenCodec<JsonCodec.Node> {
  /** Default bound on the nesting of a JSON document ({@code --maxNestingDepth}). */
  public static final int DEFAULT_MAX_NESTING_DEPTH = TransportFormat.DEFAULT_MAX_NESTING_DEPTH;

  private final int maxNestingDepth;
  private transient JsonFactory factory;

  private transient ByteArrayOutputStream out;

  public JsonCodec(Schema schema) {
    this(schema, DEFAULT_MAX_NESTING_DEPTH);
  }

  /**
   * @param maxNestingDepth deepest nesting of objects and arrays in a document (unknown
   *     properties included, which are skipped): the parser refuses deeper documents
   */
  public JsonCodec(Schema schema, int maxNestingDepth) {
    super(schema);
    if (maxNestingDepth < 1) throw new IllegalArgumentException("--maxNestingDepth must be >= 1, got " + maxNestingDepth);
    this.maxNestingDepth = maxNestingDepth;
  }

  private JsonFactory factory() {
    if (factory == null) {
      factory = JsonFactory.builder()
          .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
              .maxNestingDepth(maxNestingDepth).build())
          .build();
    }
    return factory;
  }

  @Override
  Node compile(Schema schema) {
    return compile(schema, schema.getName(), new HashMap<>());
  }

  @Override
  public byte[] encode(GenericRecord event) {
    Node r = compiled();
    if (out == null) out = new ByteArrayOutputStream(2048);
    out.reset();
    try (JsonGenerator g = factory().createGenerator(out)) {
      r.write(g, event);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cannot encode event as JSON: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  @Override
  public GenericRecord decode(byte[] payload) {
    Node r = compiled();
    try (JsonParser p = factory().createParser(payload)) {
      p.nextToken();
      GenericRecord record = (GenericRecord) r.read(p);
      if (p.nextToken() != null) throw new IllegalArgumentException("content after the JSON object");
      return record;
    } catch (IOException e) {
      throw new IllegalArgumentException("not valid JSON: " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()), e);
    }
  }

  /** One schema node; {@code read} starts at the value's first token. */
  interface Node {
    void write(JsonGenerator g, Object v) throws IOException;

    Object read(JsonParser p) throws IOException;
  }

  private static IllegalArgumentException mismatch(String path, String expected, JsonParser p) {
    return new IllegalArgumentException("field '" + path + "': expected " + expected + ", got " + p.currentToken());
  }

  private static Node compile(Schema s, String path, Map<String, Node> records) {
    switch (s.getType()) {
      case STRING:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            // a slice's bytes are UTF-8 already: escaped as they are, not decoded into a String first
            if (v instanceof Utf8Slice u) g.writeUTF8String(u.array(), u.offset(), u.byteLength());
            else g.writeString(v.toString());
          }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) throw mismatch(path, "a string", p);
            String text = p.getText();
            try {
              TextCheck.text(text);
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException("field '" + path + "': " + e.getMessage());
            }
            return text;
          }
        };
      case BYTES:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            ByteBuffer b = ((ByteBuffer) v).duplicate();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            g.writeString(Base64.getEncoder().encodeToString(a));
          }
          public Object read(JsonParser p) throws IOException {
            return ByteBuffer.wrap(base64(p, path));
          }
        };
      case FIXED:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            g.writeString(Base64.getEncoder().encodeToString(((GenericFixed) v).bytes()));
          }
          public Object read(JsonParser p) throws IOException {
            byte[] b = base64(p, path);
            if (b.length != s.getFixedSize()) {
              throw new IllegalArgumentException("field '" + path + "': expected " + s.getFixedSize() + " bytes, got " + b.length);
            }
            return new GenericData.Fixed(s, b);
          }
        };
      case LONG:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeNumber((Long) v); }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw mismatch(path, "an integer", p);
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) throw new IllegalArgumentException("field '" + path + "': integer out of 64-bit range");
            return p.getLongValue();
          }
        };
      case INT:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeNumber((Integer) v); }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw mismatch(path, "an integer", p);
            if (p.getNumberType() != JsonParser.NumberType.INT) throw new IllegalArgumentException("field '" + path + "': integer out of 32-bit range");
            return p.getIntValue();
          }
        };
      case DOUBLE:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeNumber((Double) v); }
          public Object read(JsonParser p) throws IOException {
            if (!p.currentToken().isNumeric()) throw mismatch(path, "a number", p);
            return p.getDoubleValue();
          }
        };
      case FLOAT:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeNumber((Float) v); }
          public Object read(JsonParser p) throws IOException {
            if (!p.currentToken().isNumeric()) throw mismatch(path, "a number", p);
            return p.getFloatValue();
          }
        };
      case BOOLEAN:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeBoolean((Boolean) v); }
          public Object read(JsonParser p) throws IOException {
            if (!p.currentToken().isBoolean()) throw mismatch(path, "true or false", p);
            return p.getBooleanValue();
          }
        };
      case ENUM:
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException { g.writeString(v.toString()); }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) throw mismatch(path, "one of " + s.getEnumSymbols(), p);
            String v = p.getText();
            if (!s.hasEnumSymbol(v)) throw new IllegalArgumentException("field '" + path + "': '" + v + "' is not one of " + s.getEnumSymbols());
            return new GenericData.EnumSymbol(s, v);
          }
        };
      case ARRAY: {
        Node element = compile(s.getElementType(), path + "[]", records);
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            g.writeStartArray();
            for (Object o : (java.util.Collection<?>) v) element.write(g, o);
            g.writeEndArray();
          }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) throw mismatch(path, "an array", p);
            List<Object> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) items.add(element.read(p));
            return items;
          }
        };
      }
      case MAP: {
        Node value = compile(s.getValueType(), path + "{}", records);
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
              g.writeFieldName(e.getKey().toString());
              value.write(g, e.getValue());
            }
            g.writeEndObject();
          }
          public Object read(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.START_OBJECT) throw mismatch(path, "an object", p);
            Map<String, Object> m = new HashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String k = p.currentName();
              TextCheck.text(k);
              p.nextToken();
              m.put(k, value.read(p));
            }
            return m;
          }
        };
      }
      case UNION: {
        List<Schema> branches = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
        if (branches.size() != 1 || s.getTypes().size() != 2) {
          throw new IllegalArgumentException("field '" + path + "': only [null, T] unions have a plain JSON form, not " + s);
        }
        Node inner = compile(branches.get(0), path, records);
        return new Node() {
          public void write(JsonGenerator g, Object v) throws IOException {
            if (v == null) g.writeNull();
            else inner.write(g, v);
          }
          public Object read(JsonParser p) throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? null : inner.read(p);
          }
        };
      }
      case RECORD: {
        Node existing = records.get(s.getFullName());
        if (existing != null) return existing;
        RecordNode node = new RecordNode(s, path);
        records.put(s.getFullName(), node);
        node.compileFields(records);
        return node;
      }
      default:
        throw new IllegalArgumentException("field '" + path + "': no JSON form for Avro " + s.getType());
    }
  }

  private static byte[] base64(JsonParser p, String path) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) throw mismatch(path, "a base64 string", p);
    try {
      return Base64.getDecoder().decode(p.getText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field '" + path + "': not base64: " + e.getMessage());
    }
  }

  private static final class RecordNode implements Node {
    private final Schema schema;
    private final String path;
    private final Map<String, Integer> positions = new HashMap<>();
    private String[] names;
    private Node[] nodes;
    private boolean[] nullable;

    RecordNode(Schema schema, String path) {
      this.schema = schema;
      this.path = path;
    }

    void compileFields(Map<String, Node> records) {
      List<Schema.Field> fields = schema.getFields();
      names = new String[fields.size()];
      nodes = new Node[fields.size()];
      nullable = new boolean[fields.size()];
      for (int i = 0; i < names.length; i++) {
        Schema.Field f = fields.get(i);
        names[i] = f.name();
        nodes[i] = compile(f.schema(), path + "." + f.name(), records);
        nullable[i] = f.schema().isNullable();
        positions.put(f.name(), i);
      }
    }

    public void write(JsonGenerator g, Object v) throws IOException {
      GenericRecord r = (GenericRecord) v;
      g.writeStartObject();
      for (int i = 0; i < nodes.length; i++) {
        Object value = r.get(i);
        if (value == null && nullable[i]) continue; // absent = null, as JSON Schema's optional
        if (value == null) throw new IllegalArgumentException("required field '" + path + "." + names[i] + "' is null");
        g.writeFieldName(names[i]);
        nodes[i].write(g, value);
      }
      g.writeEndObject();
    }

    public Object read(JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) throw mismatch(path, "an object", p);
      GenericData.Record r = new GenericData.Record(schema);
      boolean[] seen = new boolean[nodes.length];
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        Integer pos = positions.get(p.currentName());
        JsonToken t = p.nextToken();
        if (pos == null) {
          p.skipChildren();
        } else if (t == JsonToken.VALUE_NULL && !nullable[pos]) {
          throw new IllegalArgumentException("field '" + path + "." + names[pos] + "' is required but null");
        } else {
          r.put(pos, nodes[pos].read(p));
          seen[pos] = true;
        }
      }
      for (int i = 0; i < nodes.length; i++) {
        if (!seen[i] && !nullable[i]) throw new IllegalArgumentException("required field '" + path + "." + names[i] + "' missing");
      }
      return r;
    }
  }
}
