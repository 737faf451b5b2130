package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.testing.ExampleSchemas;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The formats' defences against hostile input, one unit at a time (the pipeline battery is HostileInputTest). */
class HostileFormatsTest {
  private static byte[] bytes(int... b) {
    byte[] a = new byte[b.length];
    for (int i = 0; i < b.length; i++) a[i] = (byte) b[i];
    return a;
  }

  @Test
  void utf8CheckAcceptsWellFormedTextAndRefusesEveryMalformedForm() {
    byte[] good = "aé€😀z".getBytes(StandardCharsets.UTF_8);
    TextCheck.utf8(good, 0, good.length);
    for (byte[] bad : new byte[][] {
        bytes(0x41, 0x00), // NUL
        bytes(0xC3, 0x28), // lead byte, no continuation
        bytes(0xC3), // truncated
        bytes(0xC0, 0x80), // overlong NUL
        bytes(0xE0, 0x80, 0x80), // overlong
        bytes(0xED, 0xA0, 0x80), // a surrogate
        bytes(0xF4, 0x90, 0x80, 0x80), // above U+10FFFF
        bytes(0xF5, 0x80, 0x80, 0x80), // never a lead byte
        bytes(0x80)}) { // a stray continuation
      assertThrows(IllegalArgumentException.class, () -> TextCheck.utf8(bad, 0, bad.length), Arrays.toString(bad));
    }
    assertThrows(IllegalArgumentException.class, () -> TextCheck.text("a\u0000"));
    assertThrows(IllegalArgumentException.class, () -> TextCheck.text("a\uD800b"));
    TextCheck.text("a😀");
  }

  /**
   * The check reads ASCII 8 bytes at a time: a NUL or a non-ASCII byte at any position of a word,
   * and words straddling the end, must give the verdict and offset of a byte at a time. Random
   * mostly-ASCII strings are judged against the JDK's strict UTF-8 decoder (plus: no NUL).
   */
  @Test
  void utf8CheckAgreesWithTheJdkDecoderAtEveryPositionOfAWord() {
    for (int len = 1; len <= 20; len++) {
      for (int at = 0; at < len; at++) {
        byte[] t = "abcdefghijklmnopqrstuvwxyz".substring(0, len).getBytes(StandardCharsets.US_ASCII);
        TextCheck.utf8(t, 0, len);
        for (int bad : new int[] {0x00, 0x80, 0xC3, 0xFF}) {
          t[at] = (byte) bad;
          byte[] b = t;
          int n = len;
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TextCheck.utf8(b, 0, n));
          // a lead byte followed by ASCII is refused at the byte that should have continued it
          int expected = bad == 0xC3 && at < len - 1 ? at + 1 : at;
          assertTrue(e.getMessage().endsWith("at offset " + expected), e.getMessage());
        }
      }
    }
    java.util.Random random = new java.util.Random(42);
    int refused = 0;
    for (int n = 0; n < 200_000; n++) {
      byte[] b = new byte[1 + random.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        int r = random.nextInt(1000);
        b[i] = (byte) (r < 990 ? 0x20 + random.nextInt(0x5F) : r < 993 ? 0 : random.nextInt(256));
      }
      int from = random.nextInt(b.length), len = random.nextInt(b.length - from + 1);
      boolean jdk = strictUtf8WithoutNul(b, from, len);
      boolean ours = true;
      try {
        TextCheck.utf8(b, from, len);
      } catch (IllegalArgumentException e) {
        ours = false;
        refused++;
      }
      assertEquals(jdk, ours, Arrays.toString(Arrays.copyOfRange(b, from, from + len)));
    }
    assertTrue(refused > 2_000, "the random strings should include many bad ones: " + refused);
  }

  private static boolean strictUtf8WithoutNul(byte[] b, int from, int len) {
    for (int i = from; i < from + len; i++) if (b[i] == 0) return false;
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(b, from, len));
      return true;
    } catch (java.nio.charset.CharacterCodingException e) {
      return false;
    }
  }

  @Test
  void identityHeadersMustHaveTheirWidthBeNonNegativeAndNotBeText() {
    RecordHeaders ok = new RecordHeaders();
    EventHeaders.write(ok, 7, 8, 9);
    assertEquals(new EventHeaders.Stamp(7, 8, 9), EventHeaders.read(ok));

    RecordHeaders text = new RecordHeaders();
    EventHeaders.write(text, 7, 8, 9);
    text.remove(EventHeaders.PRODUCER_ID);
    text.add(EventHeaders.PRODUCER_ID, "9005".getBytes(StandardCharsets.US_ASCII));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> EventHeaders.read(text)).getMessage().contains("text"));

    RecordHeaders negative = new RecordHeaders();
    EventHeaders.write(negative, 7, -1, 9);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> EventHeaders.read(negative)).getMessage().contains("negative"));

    RecordHeaders narrow = new RecordHeaders();
    EventHeaders.write(narrow, 7, 8, 9);
    narrow.remove(EventHeaders.SEND_TIME_MICROS);
    narrow.add(EventHeaders.SEND_TIME_MICROS, new byte[4]);
    assertThrows(IllegalArgumentException.class, () -> EventHeaders.read(narrow));

    assertTrue(EventHeaders.absent(new RecordHeaders()));
    assertTrue(!EventHeaders.absent(narrow));
    assertEquals(new EventHeaders.Stamp(-3, 42, 5_000), EventHeaders.Stamp.ofOffset(2, 42, 5));
  }

  @Test
  void envelopeLimitsHoldBeforeAllocating() {
    RecordHeaders nullValue = new RecordHeaders();
    nullValue.add(Envelope.HEADER, null);
    assertThrows(IllegalArgumentException.class, () -> Envelope.compressionOf(nullValue));

    ByteBuffer zstd = ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    zstd.putInt(0xFD2FB528).put((byte) 0xA0).putInt(200_000_000).put((byte) 1).put((byte) 0).put((byte) 0);
    assertThrows(Compression.TooLargeException.class, () -> Compression.ZSTD.decompress(zstd.array()));
    byte[] lz4 = ByteBuffer.allocate(8).putInt(200_000_000).array();
    assertThrows(Compression.TooLargeException.class, () -> Compression.LZ4.decompress(lz4));
    byte[] zeros = Compression.ZLIB.compress(new byte[1 << 20]);
    assertThrows(Compression.TooLargeException.class, () -> Compression.ZLIB.decompress(zeros, 1 << 16));
    assertEquals(1 << 20, Compression.ZLIB.decompress(zeros).length);

    Envelope.Builder b = new Envelope.Builder(Compression.LZ4);
    for (int i = 0; i < 5; i++) b.add(new EventHeaders.Stamp(1, i, 0), new byte[] {1});
    byte[] value = b.finish(new RecordHeaders());
    assertEquals(5, Envelope.unbatch(value, Compression.LZ4, 1 << 20, 5, e -> {}));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> Envelope.unbatch(value, Compression.LZ4, 1 << 20, 4, e -> {})).getMessage().contains("--maxEnvelopeEvents"));
  }

  @Test
  void deeplyNestedUnknownThriftFieldIsRefusedNotAStackOverflow() {
    Schema schema = ExampleSchemas.load(ExampleSchemas.SIMPLE_THRIFT);
    PayloadCodec codec = TransportFormat.THRIFT.codec(schema);
    byte[] event = codec.encode(new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 1).next());
    int depth = 100_000;
    ByteBuffer b = ByteBuffer.allocate(depth * 4 + event.length);
    for (int i = 0; i < depth; i++) b.put((byte) 12).putShort((short) 999);
    for (int i = 0; i < depth; i++) b.put((byte) 0);
    b.put(event);
    byte[] nested = Arrays.copyOf(b.array(), b.position());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> codec.decode(nested)).getMessage()
        .contains("--maxNestingDepth"));
    // within the bound, the unknown field is skipped as Thrift code would
    ByteBuffer shallow = ByteBuffer.allocate(10 * 4 + event.length);
    for (int i = 0; i < 10; i++) shallow.put((byte) 12).putShort((short) 999);
    for (int i = 0; i < 10; i++) shallow.put((byte) 0);
    shallow.put(event);
    assertEquals(codec.decode(event), codec.decode(Arrays.copyOf(shallow.array(), shallow.position())));
  }
}
