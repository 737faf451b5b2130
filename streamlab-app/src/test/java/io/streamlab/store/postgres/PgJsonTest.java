package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.AvroJson;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.testing.RandomSchemas;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import io.streamlab.formats.Utf8Slice;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * PgJson (the jsonb writer of the COPY path) gives the same JSON as AvroJson, the reference form
 * of TABLE_ROW and of jsonb before it: compared as parsed trees, since jsonb normalises the text.
 */
class PgJsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode pgJson(Object value, Schema schema) throws Exception {
    CopyBuffer out = new CopyBuffer(16);
    PgJson.compile(schema).write(out, value);
    return MAPPER.readTree(new String(Arrays.copyOf(out.array(), out.size()), StandardCharsets.UTF_8));
  }

  @Test
  void exampleAndRandomSchemasGiveAvroJsonsTree() throws Exception {
    List<Schema> schemas = new ArrayList<>();
    for (String name : ExampleSchemas.ALL) schemas.add(ExampleSchemas.load(name));
    for (long seed = 0; seed < 100; seed++) schemas.add(RandomSchemas.generate(seed));
    GeneratorSettings settings = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3)
        .minStringLength(0).maxStringLength(12).build();
    int compared = 0;
    for (int t = 0; t < schemas.size(); t++) {
      RandomRecordFactory f = new RandomRecordFactory(schemas.get(t), settings, t);
      for (int i = 0; i < 20; i++) {
        GenericRecord r = f.next();
        assertEquals(MAPPER.readTree(AvroJson.toJson(r, r.getSchema())), pgJson(r, r.getSchema()), r.toString());
        compared++;
      }
    }
    assertEquals(schemas.size() * 20, compared);
  }

  @Test
  void stringsAreEscapedAsJsonWantsThem() throws Exception {
    Schema s = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
        + "{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":[\"null\",\"string\"]},"
        + "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"long\"}}]}");
    String hostile = "q\"uo\\te\n\r\t\b\f\u0001\u001f é 日本 😀 end";
    for (Object text : List.of(hostile, new Utf8(hostile), slice(hostile), "", new Utf8(""), slice(""))) {
      GenericRecord r = new GenericData.Record(s);
      r.put("a", text);
      r.put("b", null);
      r.put("m", java.util.Map.of(text, Long.MIN_VALUE, "k\"", -7L, "z", 1234567890123L));
      JsonNode got = pgJson(r, s);
      assertEquals(MAPPER.readTree(AvroJson.toJson(r, s)), got);
      assertEquals(text.toString(), got.get("a").asText());
    }
  }

  /** The one-pass copy takes exactly the plain ASCII strings, and writes them as putString does. */
  @Test
  void plainAsciiIsCopiedInOnePassAndNothingElseIs() {
    int taken = 0;
    for (int length = 1; length <= 19; length++) {
      for (int pos = 0; pos < length; pos++) {
        for (int c = 0; c < 256; c++) {
          byte[] b = new byte[length + 2];
          Arrays.fill(b, (byte) 'x');
          b[1 + pos] = (byte) c;
          boolean plain = c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
          CopyBuffer one = new CopyBuffer(8), two = new CopyBuffer(8);
          assertEquals(plain, PgJson.putPlainAscii(one, b, 1, length), "byte " + c + " at " + pos + " of " + length);
          if (!plain) {
            assertEquals(0, one.size(), "nothing written for a string it does not take");
            continue;
          }
          PgJson.putString(two, b, 1, length);
          assertEquals(new String(two.array(), 0, two.size(), StandardCharsets.ISO_8859_1),
              new String(one.array(), 0, one.size(), StandardCharsets.ISO_8859_1));
          taken++;
        }
      }
    }
    assertEquals(190 * 94, taken); // positions of lengths 1..19, bytes 0x20..0x7f but the quote and the backslash
  }

  @Test
  void aWordNeedsEscapingExactlyWhenOneOfItsBytesDoes() {
    // backgrounds next to the bounds of the word tests (0x20/0x21, '"'+1, '\\'+-1, DEL, UTF-8 bytes)
    int[] backgrounds = {'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xff};
    int checked = 0;
    for (int background : backgrounds) {
      for (int pos = 0; pos < 8; pos++) {
        for (int c = 0; c < 256; c++) {
          byte[] w = new byte[8];
          Arrays.fill(w, (byte) background);
          w[pos] = (byte) c;
          boolean expected = c < 0x20 || c == '"' || c == '\\';
          long word = java.nio.ByteBuffer.wrap(w).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
          assertEquals(expected, PgJson.needsEscape(word), "byte " + c + " at " + pos + " among " + background);
          checked++;
        }
      }
    }
    assertEquals(backgrounds.length * 8 * 256, checked);
  }

  @Test
  void longStringsWithAnEscapeAnywhereGiveAvroJsonsText() throws Exception {
    Schema s = Schema.create(Schema.Type.STRING);
    for (String special : List.of("\"", "\\", "\n", "\u0000", "\u001f", "é")) {
      for (int length = 0; length < 40; length++) {
        for (int at = 0; at <= length; at++) {
          String text = "x".repeat(at) + special + "y".repeat(length - at);
          assertEquals(text, pgJson(new Utf8(text), s).asText(), "special " + special + " at " + at);
          assertEquals(text, pgJson(slice(text), s).asText(), "slice, special " + special + " at " + at);
        }
      }
    }
  }

  /** The text in place in a larger message, between bytes that would need escaping. */
  private static Utf8Slice slice(String text) {
    byte[] t = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] message = new byte[t.length + 19];
    Arrays.fill(message, (byte) '"');
    System.arraycopy(t, 0, message, 11, t.length);
    return new Utf8Slice(message, 11, t.length);
  }
}
