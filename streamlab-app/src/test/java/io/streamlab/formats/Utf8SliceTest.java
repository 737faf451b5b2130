package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.junit.jupiter.api.Test;

class Utf8SliceTest {
  private static final List<String> TEXTS = List.of("", "a", "event-42", "é 日本 😀", "zz", "a\u0000b");

  /** The text's bytes at offset 5 of a larger array whose other bytes are not the text's. */
  private static Utf8Slice slice(String text) {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    byte[] message = new byte[t.length + 9];
    java.util.Arrays.fill(message, (byte) 'X');
    System.arraycopy(t, 0, message, 5, t.length);
    return new Utf8Slice(message, 5, t.length);
  }

  @Test
  void behavesAsTheTextItHolds() {
    for (String text : TEXTS) {
      Utf8Slice s = slice(text);
      assertEquals(text, s.toString());
      assertEquals(text.length(), s.length());
      assertEquals(text.getBytes(StandardCharsets.UTF_8).length, s.byteLength());
      if (!text.isEmpty()) assertEquals(text.charAt(text.length() - 1), s.charAt(s.length() - 1));
      assertEquals(new Utf8(text), s.toUtf8());
    }
  }

  @Test
  void equalAndHashedAsAvrosUtf8AndOrderedByBytes() {
    for (String a : TEXTS) {
      assertEquals(slice(a), new Utf8(a), a);
      assertEquals(new Utf8(a).hashCode(), slice(a).hashCode(), a);
      assertEquals(slice(a), slice(a));
      for (String b : TEXTS) {
        int expected = Integer.signum(new Utf8(a).compareTo(new Utf8(b)));
        assertEquals(expected, Integer.signum(slice(a).compareTo(slice(b))), a + " vs " + b);
        assertEquals(expected, Integer.signum(slice(a).compareTo(new Utf8(b))), a + " vs Utf8 " + b);
        if (!a.equals(b)) assertNotEquals(slice(a), slice(b));
      }
    }
    assertTrue(slice("a").compareTo(slice("é")) < 0, "unsigned byte order: 'a' before a multi-byte character");
  }

  @Test
  void avroRecordCoderWritesSlicesAsStringsAndRecordsCompareEqual() throws Exception {
    Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
        + "{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"o\",\"type\":[\"null\",\"string\"]}]}");
    AvroCoder<GenericRecord> coder = AvroRecordCoder.of(schema);
    for (String text : TEXTS) {
      GenericRecord withSlices = new GenericData.Record(schema);
      withSlices.put("s", slice(text));
      withSlices.put("o", slice(text + "!"));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      coder.encode(withSlices, bytes);
      GenericRecord back = coder.decode(new ByteArrayInputStream(bytes.toByteArray()));
      assertEquals(text, back.get("s").toString());
      assertEquals(text + "!", back.get("o").toString());
      // the same bytes as Avro's own coder writes for the same text as Utf8
      GenericRecord withUtf8 = new GenericData.Record(schema);
      withUtf8.put("s", new Utf8(text));
      withUtf8.put("o", new Utf8(text + "!"));
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      AvroCoder.of(schema).encode(withUtf8, expected);
      assertEquals(java.util.Arrays.toString(expected.toByteArray()), java.util.Arrays.toString(bytes.toByteArray()));
      assertEquals(withUtf8, withSlices, "GenericData compares string fields by text");
    }
  }

  /** Its reader (strings read without Avro's per-string class lookup) decodes what Avro's own does. */
  @Test
  void avroRecordCoderDecodesAsAvrosOwnCoder() throws Exception {
    for (long seed = 0; seed < 200; seed++) {
      Schema schema = io.streamlab.testing.RandomSchemas.generate(seed);
      io.streamlab.generator.RandomRecordFactory events = new io.streamlab.generator.RandomRecordFactory(schema,
          io.streamlab.generator.GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3).build(), seed);
      AvroCoder<GenericRecord> ours = AvroRecordCoder.of(schema), avros = AvroCoder.of(schema);
      for (int i = 0; i < 5; i++) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        avros.encode(events.next(), bytes);
        assertEquals(avros.decode(new ByteArrayInputStream(bytes.toByteArray())),
            ours.decode(new ByteArrayInputStream(bytes.toByteArray())), "seed " + seed + ", schema " + schema);
      }
    }
    // a schema that asks for java.lang.String still gets it
    Schema strings = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
        + "{\"name\":\"s\",\"type\":{\"type\":\"string\",\"avro.java.string\":\"String\"}},"
        + "{\"name\":\"u\",\"type\":\"string\"}]}");
    GenericRecord r = new GenericData.Record(strings);
    r.put("s", "as a String");
    r.put("u", new Utf8("as a Utf8"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AvroRecordCoder.of(strings).encode(r, bytes);
    GenericRecord back = AvroRecordCoder.of(strings).decode(new ByteArrayInputStream(bytes.toByteArray()));
    assertEquals(String.class, back.get("s").getClass());
    assertEquals(Utf8.class, back.get("u").getClass());
  }
}
