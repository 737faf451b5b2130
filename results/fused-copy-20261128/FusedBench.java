package io.streamlab.store.postgres;

import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TextCheck;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * A prototype, not streamlab code: the default event's Thrift bytes to its PostgreSQL COPY row
 * (a) as the pipeline does it, decode into a table record (ThriftBinaryCodec.decodeAs + stamp) and
 * encode it (PgBinary.Row: text, bigint, nested records as json text), and (b) in one pass,
 * Thrift straight to the same bytes, by a transcoder written for SimplerCompoundEvent's layout
 * (fields in id order, as Thrift writes them; the same UTF-8 check and JSON escaping). Both
 * outputs are compared byte for byte first. One thread; ns per event.
 */
public class FusedBench {
  static final byte[][] NESTED_NAMES = {
      names("userId", "userName", "accountCreatedAt"), names("sessionId", "startedAt", "referrer"),
      names("deviceId", "userAgent", "operatingSystem"), names("country", "city", "geoHash"),
      names("url", "title", "loadTimeMillis")};
  // per nested struct, the Thrift type of fields 1..3: 11 = string, 10 = i64
  static final byte[][] NESTED_TYPES = {{11, 11, 10}, {11, 10, 11}, {11, 11, 11}, {11, 11, 10}, {11, 11, 10}};

  static byte[] names(String... n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n.length; i++) s.append(i == 0 ? "" : "\u0000").append(i == 0 ? "{" : ",").append('"').append(n[i]).append("\":");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] a) {
    Schema schema = SchemaLoader.loadDefault();
    Schema table = SystemColumns.tableRecordSchema(schema);
    PayloadCodec codec = TransportFormat.THRIFT.codec(schema);
    RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 42);
    byte[][] msgs = new byte[10_000][];
    for (int i = 0; i < msgs.length; i++) msgs[i] = codec.encode(f.next());
    PgBinary.Row row = new PgBinary.Row(table.getFields(), Set.of());
    CopyBuffer x = new CopyBuffer(1 << 16), y = new CopyBuffer(1 << 16);
    for (int i = 0; i < msgs.length; i++) {
      x.clear(); y.clear();
      row.write(x, SystemColumns.stamp(codec.decodeAs(msgs[i], table), 7, i, 1234567L));
      fused(msgs[i], y, 7, i, 1234567L);
      if (!Arrays.equals(x.array(), 0, x.size(), y.array(), 0, y.size())) throw new AssertionError("differs at event " + i);
    }
    System.out.println("outputs equal for " + msgs.length + " events");
    CopyBuffer out = new CopyBuffer(1 << 24);
    for (int round = 1; round <= 10; round++) {
      boolean viaRecords = round % 2 == 1;
      var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      var th = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
      long tid = Thread.currentThread().getId();
      long cpu0 = os.getProcessCpuTime(), alloc0 = th.getThreadAllocatedBytes(tid);
      long t0 = System.nanoTime();
      for (int rep = 0; rep < 100; rep++) {
        for (int i = 0; i < msgs.length; i++) {
          if ((i & 1023) == 0) out.clear();
          if (viaRecords) row.write(out, SystemColumns.stamp(codec.decodeAs(msgs[i], table), 7, i, 1234567L));
          else fused(msgs[i], out, 7, i, 1234567L);
        }
      }
      double ns = (System.nanoTime() - t0) / 1e6;
      double cpu = (os.getProcessCpuTime() - cpu0) / 1e6, alloc = (th.getThreadAllocatedBytes(tid) - alloc0) / 1e6;
      if (round > 4) System.out.printf("round %d %-16s %,5.0f ns per event (wall, one thread), %,5.0f ns of process CPU (GC and JIT included), %,4.0f bytes allocated%n",
          round, viaRecords ? "decode + encode" : "one pass", ns, cpu, alloc);
    }
  }

  static int pos;

  static int i32(byte[] b) {
    int v = ((b[pos] & 0xFF) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
    pos += 4;
    return v;
  }

  static long i64(byte[] b) {
    long v = ((long) i32(b) << 32);
    return v | (i32(b) & 0xFFFFFFFFL);
  }

  /** Field header: type byte, then i16 id; returns the type (0 = STOP). */
  static byte field(byte[] b) {
    byte t = b[pos++];
    if (t != 0) pos += 2;
    return t;
  }

  static void text(byte[] b, CopyBuffer out) {
    int n = i32(b);
    if (n < 0 || n > b.length - pos) throw new IllegalArgumentException("bad length");
    TextCheck.utf8(b, pos, n);
    out.putInt(n);
    out.put(b, pos, n);
    pos += n;
  }

  static void jsonString(byte[] b, CopyBuffer out) {
    int n = i32(b);
    if (n < 0 || n > b.length - pos) throw new IllegalArgumentException("bad length");
    TextCheck.utf8(b, pos, n);
    PgJson.putString(out, new io.streamlab.formats.Utf8Slice(b, pos, n));
    pos += n;
  }

  static void fused(byte[] b, CopyBuffer out, int producer, long seq, long sent) {
    pos = 0;
    int nested = 0;
    boolean processedAt = false;
    for (byte t; (t = field(b)) != 0; ) {
      if (t == 11) text(b, out);
      else if (t == 10) {
        long v = i64(b);
        out.putInt(8);
        out.putLong(v);
        processedAt = nested == 5 ? true : processedAt;
      } else if (t == 12) {
        int len = out.reserveInt();
        byte[] names = NESTED_NAMES[nested];
        int from = 0;
        for (int k = 0; k < 3; k++) {
          byte ft = field(b);
          int to = from;
          while (to < names.length && names[to] != 0) to++;
          out.put(names, from, to - from);
          from = to + 1;
          if (ft == 11) jsonString(b, out);
          else out.putDecimal(i64(b));
        }
        if (field(b) != 0) throw new IllegalArgumentException("more fields than expected");
        out.put((byte) '}');
        out.patchLength(len);
        nested++;
      } else throw new IllegalArgumentException("type " + t);
    }
    if (!processedAt) out.putInt(-1);
    out.putInt(4); out.putInt(producer);
    out.putInt(8); out.putLong(seq);
    out.putInt(8); out.putLong(sent);
  }
}
