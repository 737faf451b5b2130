package io.streamlab.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;

/**
 * Avro values as plain JSON, the way a BigQuery TableRow carries them: records as objects by
 * field name, maps as objects, arrays as arrays, enums as their symbol, bytes and fixed as
 * base64, a null union branch as JSON null (no Avro union wrapper). Both directions are driven by
 * the schema, so the round trip gives back equal records. Used for the TABLE_ROW element format
 * and for PostgreSQL jsonb columns.
 */
public final class AvroJson {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private AvroJson() {}

  public static String toJson(Object value, Schema schema) {
    StringWriter w = new StringWriter(1024);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      write(g, value, schema);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  public static void write(JsonGenerator g, Object v, Schema schema) throws IOException {
    if (v == null) {
      g.writeNull();
      return;
    }
    Schema t = AvroSchemas.nonNull(schema);
    switch (t.getType()) {
      case STRING, ENUM -> g.writeString(v.toString());
      case INT -> g.writeNumber((Integer) v);
      case LONG -> g.writeNumber((Long) v);
      case FLOAT -> g.writeNumber((Float) v);
      case DOUBLE -> g.writeNumber((Double) v);
      case BOOLEAN -> g.writeBoolean((Boolean) v);
      case BYTES -> {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        g.writeString(Base64.getEncoder().encodeToString(a));
      }
      case FIXED -> g.writeString(Base64.getEncoder().encodeToString(((GenericFixed) v).bytes()));
      case ARRAY -> {
        g.writeStartArray();
        for (Object item : (Collection<?>) v) write(g, item, t.getElementType());
        g.writeEndArray();
      }
      case MAP -> {
        g.writeStartObject();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          g.writeFieldName(e.getKey().toString());
          write(g, e.getValue(), t.getValueType());
        }
        g.writeEndObject();
      }
      case RECORD -> {
        IndexedRecord r = (IndexedRecord) v;
        g.writeStartObject();
        for (Schema.Field f : t.getFields()) {
          g.writeFieldName(f.name());
          write(g, r.get(f.pos()), f.schema());
        }
        g.writeEndObject();
      }
      default -> throw new IllegalArgumentException("no JSON form for Avro type " + t.getType());
    }
  }

  /** Parses a JSON row back into a record of {@code schema}. */
  public static GenericRecord parseRecord(String json, Schema schema) {
    try {
      return (GenericRecord) read(MAPPER.readTree(json), schema);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a JSON row: " + e.getMessage(), e);
    }
  }

  public static Object read(JsonNode n, Schema schema) {
    if (n == null || n.isNull()) {
      if (!AvroSchemas.nullable(schema)) throw new IllegalArgumentException("null for non-null " + schema.getType());
      return null;
    }
    Schema t = AvroSchemas.nonNull(schema);
    return switch (t.getType()) {
      case STRING -> n.asText();
      case ENUM -> new GenericData.EnumSymbol(t, n.asText());
      case INT -> n.intValue();
      case LONG -> n.longValue();
      case FLOAT -> n.floatValue();
      case DOUBLE -> n.doubleValue();
      case BOOLEAN -> n.booleanValue();
      case BYTES -> ByteBuffer.wrap(Base64.getDecoder().decode(n.asText()));
      case FIXED -> new GenericData.Fixed(t, Base64.getDecoder().decode(n.asText()));
      case ARRAY -> {
        List<Object> items = new ArrayList<>(n.size());
        for (JsonNode item : n) items.add(read(item, t.getElementType()));
        yield new GenericData.Array<>(t, items);
      }
      case MAP -> {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          m.put(e.getKey(), read(e.getValue(), t.getValueType()));
        }
        yield m;
      }
      case RECORD -> {
        GenericData.Record r = new GenericData.Record(t);
        for (Schema.Field f : t.getFields()) r.put(f.pos(), read(n.get(f.name()), f.schema()));
        yield r;
      }
      default -> throw new IllegalArgumentException("no JSON form for Avro type " + t.getType());
    };
  }
}
