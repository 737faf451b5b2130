import java.util.SplittableRandom;
public class DecimalBench {
  static byte[] out = new byte[1 << 20]; static int size;
  static void old(long v) {
    if (v < 0) { out[size++] = '-'; v = -v; }
    int digits = 1;
    for (long x = v; x >= 10; x /= 10) digits++;
    for (int i = size + digits - 1; i >= size; i--) { out[i] = (byte) ('0' + (v % 10)); v /= 10; }
    size += digits;
  }
  static final byte[] P = new byte[200];
  static { for (int i = 0; i < 100; i++) { P[2*i] = (byte)('0'+i/10); P[2*i+1] = (byte)('0'+i%10);} }
  static int digits(long v) { long b = 10; for (int d = 1; d < 19; d++) { if (v < b) return d; b *= 10; } return 19; }
  static void neu(long v) {
    if (v < 0) { out[size++] = '-'; v = -v; }
    int end = size + digits(v); int i = end;
    while (v >= 100) { long q = v / 100; int p = (int) (v - q * 100) << 1; v = q; out[--i] = P[p+1]; out[--i] = P[p]; }
    if (v >= 10) { int p = (int) v << 1; out[--i] = P[p+1]; out[--i] = P[p]; } else out[--i] = (byte)('0'+v);
    size = end;
  }
  static void neu2(long v) {
    if (v < 0) { out[size++] = '-'; v = -v; }
    int end = size + digits(v); int i = end;
    while (v > Integer.MAX_VALUE) { long q = v / 100; int p = (int) (v - q * 100) << 1; v = q; out[--i] = P[p+1]; out[--i] = P[p]; }
    int w = (int) v;
    while (w >= 100) { int q = w / 100; int p = (w - q * 100) << 1; w = q; out[--i] = P[p+1]; out[--i] = P[p]; }
    if (w >= 10) { int p = w << 1; out[--i] = P[p+1]; out[--i] = P[p]; } else out[--i] = (byte)('0'+w);
    size = end;
  }
  public static void main(String[] a) {
    SplittableRandom r = new SplittableRandom(1);
    long[] full = new long[10000], small = new long[10000];
    for (int i = 0; i < full.length; i++) { full[i] = r.nextLong(); small[i] = r.nextInt(1000); }
    for (int round = 0; round < 6; round++) {
      for (String kind : new String[]{"full-range longs", "ints < 1000"}) {
        long[] vs = kind.startsWith("full") ? full : small;
        long t0 = System.nanoTime();
        for (int k = 0; k < 200; k++) { size = 0; for (long v : vs) old(v); }
        long t1 = System.nanoTime();
        for (int k = 0; k < 200; k++) { size = 0; for (long v : vs) neu(v); }
        long t2 = System.nanoTime();
        for (int k = 0; k < 200; k++) { size = 0; for (long v : vs) neu2(v); }
        long t3 = System.nanoTime();
        if (round >= 3) System.out.printf("round %d %-16s one digit per division %.1f ns, two %.1f ns, two in int arithmetic below 2^31 %.1f ns per value%n", round, kind, (t1-t0)/2e6, (t2-t1)/2e6, (t3-t2)/2e6);
      }
    }
  }
}
