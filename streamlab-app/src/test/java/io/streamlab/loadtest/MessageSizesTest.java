package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MessageSizesTest {
  @Test
  void fixedSizesUseDecimalUnits() {
    assertEquals(1_000, MessageSizes.parse("1KB").next(new SplittableRandom(1)));
    assertEquals(9_000_000, MessageSizes.parse("9MB").largest());
    assertEquals(100, MessageSizes.parse("100").largest());
    assertEquals(512, MessageSizes.parse("512B").mean());
  }

  @Test
  void rangeStaysWithinBounds() {
    MessageSizes sizes = MessageSizes.parse("500B-2KB");
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 10_000; i++) {
      int s = sizes.next(r);
      assertTrue(s >= 500 && s <= 2_000, "size " + s);
    }
    assertEquals(1_250, sizes.mean());
    assertEquals(2_000, sizes.largest());
  }

  @Test
  void weightedMixFollowsItsWeights() {
    MessageSizes sizes = MessageSizes.parse("1KB:80,1MB:20");
    SplittableRandom r = new SplittableRandom(3);
    int large = 0;
    for (int i = 0; i < 10_000; i++) {
      if (sizes.next(r) == 1_000_000) large++;
    }
    assertTrue(large > 1_700 && large < 2_300, "about 20 % large: " + large);
    assertEquals(0.8 * 1_000 + 0.2 * 1_000_000, sizes.mean(), 1e-6);
  }

  @Test
  void mistakesAreNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MessageSizes.parse("1GB"));
    assertTrue(e.getMessage().contains("--messageSize"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> MessageSizes.parse("2KB-1KB"));
    assertThrows(IllegalArgumentException.class, () -> MessageSizes.parse("1KB:x"));
  }
}
