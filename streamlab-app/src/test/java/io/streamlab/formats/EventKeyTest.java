package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EventKeyTest {
  @Test
  void readsBackWhatItWrote() {
    EventHeaders.Stamp s = new EventHeaders.Stamp(Integer.MAX_VALUE, Long.MAX_VALUE - 1, 1_764_000_000_000_000L);
    byte[] key = EventKey.of(s);
    assertEquals(EventKey.BYTES, key.length);
    assertTrue(EventKey.marks(key));
    assertEquals(s, EventKey.read(key));
    ByteBuffer b = ByteBuffer.wrap(key, 4, 20);
    assertEquals(new EventHeaders.Stamp(b.getInt(), b.getLong(), b.getLong()), s, "big-endian, after the 4-byte magic");
    assertEquals("key=" + s.eventId() + "@" + s.sendTimeMicros(), EventKey.describe(key));
  }

  @Test
  void aUsersKeyClaimsNothing() {
    assertFalse(EventKey.marks(null));
    assertFalse(EventKey.marks(new byte[0]));
    assertFalse(EventKey.marks("order-17".getBytes(StandardCharsets.UTF_8)));
    byte[] otherMagic = EventKey.of(new EventHeaders.Stamp(1, 2, 3));
    otherMagic[3] = 2;
    assertFalse(EventKey.marks(otherMagic), "another version of the layout is not this one");
    assertEquals("key=8B", EventKey.describe("order-17".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aMarkedKeyOfAnotherLengthOrWithANegativeNumberIsRefused() {
    byte[] key = EventKey.of(new EventHeaders.Stamp(1, 2, 3));
    for (byte[] bad : new byte[][] {Arrays.copyOf(key, 23), Arrays.copyOf(key, 25), Arrays.copyOf(key, 4)}) {
      assertTrue(EventKey.marks(bad));
      assertThrows(IllegalArgumentException.class, () -> EventKey.read(bad), bad.length + " bytes");
    }
    for (int field : new int[] {4, 8, 16}) {
      byte[] negative = key.clone();
      negative[field] = (byte) 0x80;
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EventKey.read(negative));
      assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }
  }
}
