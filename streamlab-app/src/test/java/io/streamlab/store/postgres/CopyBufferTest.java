package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CopyBufferTest {
  @Test
  void decimalsAreLongToStringWithoutTheString() {
    List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, 9L, 10L, 11L, 99L, 100L, 101L, 999L, 1000L,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE));
    for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
      for (long v : new long[] {p - 1, p, p + 1, 10 * p - 1}) {
        values.add(v);
        values.add(-v);
      }
    }
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 100_000; i++) values.add(random.nextLong() >> random.nextInt(64));
    CopyBuffer out = new CopyBuffer(4); // grows as it goes
    StringBuilder expected = new StringBuilder();
    for (long v : values) {
      out.putDecimal(v);
      out.put((byte) ',');
      expected.append(v).append(',');
    }
    assertEquals(expected.toString(), new String(out.array(), 0, out.size(), StandardCharsets.US_ASCII));
  }
}
