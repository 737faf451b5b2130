package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EnvelopeTest {
  @ParameterizedTest(name = "{0}")
  @EnumSource(Compression.class)
  void batchesAndUnbatchesWithEveryEventsHeaders(Compression compression) {
    Envelope.Builder b = new Envelope.Builder(compression);
    for (int i = 0; i < 50; i++) b.add(new EventHeaders.Stamp(7, 100 + i, 1_000_000L * i), payload(i));
    RecordHeaders headers = new RecordHeaders();
    byte[] value = b.finish(headers);
    assertEquals(compression, Envelope.compressionOf(headers));
    assertEquals(50, Envelope.declaredCount(headers));
    assertEquals(new EventHeaders.Stamp(7, 100, 0), EventHeaders.read(headers));

    List<Envelope.Element> out = new ArrayList<>();
    assertEquals(50, Envelope.unbatch(value, compression, out::add));
    for (int i = 0; i < 50; i++) {
      assertEquals(new EventHeaders.Stamp(7, 100 + i, 1_000_000L * i), out.get(i).stamp());
      assertArrayEquals(payload(i), out.get(i).payload());
    }
    assertEquals(0, b.size(), "the builder is reset for the next batch");
  }

  private static byte[] payload(int i) {
    return ("event number " + i + " ").repeat(i % 5 + 1).getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Compression.class, names = {"ZLIB", "ZSTD", "LZ4"})
  void corruptCompressedDataIsAnIllegalArgument(Compression compression) {
    byte[] garbage = new byte[100];
    Arrays.fill(garbage, (byte) 0x5A);
    assertThrows(IllegalArgumentException.class, () -> Envelope.unbatch(garbage, compression, e -> { }));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Compression.class)
  void aBrokenFrameSaysHowManyEventsCameBeforeIt(Compression compression) {
    Envelope.Builder b = new Envelope.Builder(Compression.NONE);
    for (int i = 0; i < 3; i++) b.add(new EventHeaders.Stamp(1, i, 0), new byte[] {1, 2, 3});
    byte[] body = b.finish(new RecordHeaders());
    byte[] cut = compression.compress(Arrays.copyOf(body, body.length - 2)); // third event truncated
    List<Envelope.Element> out = new ArrayList<>();
    Envelope.UnbatchException e = assertThrows(Envelope.UnbatchException.class, () -> Envelope.unbatch(cut, compression, out::add));
    assertEquals(2, e.delivered());
    assertEquals(2, out.size());
  }
}
