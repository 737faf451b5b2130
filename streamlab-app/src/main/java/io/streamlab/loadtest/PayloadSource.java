package io.streamlab.loadtest;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random (incompressible) payloads of the requested sizes for one publishing thread. Payloads of
 * a size seen before are reused, since clients copy the bytes during send: the test then
 * measures the client, not the allocation of test data.
 */
final class PayloadSource {
  private static final int MAX_CACHED_SIZES = 64;

  private final byte[] random;
  private final Map<Integer, byte[]> bySize = new HashMap<>();

  PayloadSource(int largest, long seed) {
    random = new byte[largest];
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < largest; i += 8) {
      long v = r.nextLong();
      for (int b = 0; b < 8 && i + b < largest; b++) random[i + b] = (byte) (v >>> (8 * b));
    }
  }

  byte[] payload(int size) {
    byte[] cached = bySize.get(size);
    if (cached != null) return cached;
    byte[] p = size == random.length ? random : Arrays.copyOf(random, size);
    if (bySize.size() < MAX_CACHED_SIZES) bySize.put(size, p);
    return p;
  }
}
