package io.streamlab.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Single-thread figures per transport format on the default SimplerCompoundEvent: generate
 * (random record + encode) and decode events per CPU-second of the thread (= per core), and
 * message bytes per event with each envelope compression. Run by hand:
 * {@code mvn -o -q -pl streamlab-app -am test -Dtest=FormatsBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * (figures in target/surefire-reports/io.streamlab.formats.FormatsBenchmark-output.txt).
 * Prints figures; asserts only that decoding gave every event back.
 */
class FormatsBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int EVENTS = Integer.getInteger("bench.events", 20_000);
  private static final int ROUNDS = 5;

  @Test
  void eventsPerCorePerFormatAndEnvelopeSizes() {
    Schema schema = SchemaLoader.loadDefault();
    GeneratorSettings settings = GeneratorSettings.builder().build();
    System.out.printf("%-7s %10s %14s %14s %16s%n", "format", "bytes/evt", "generate ev/s", "decode ev/s", "decode MB/s");
    for (TransportFormat format : TransportFormat.values()) {
      PayloadCodec codec = format.codec(schema);
      RandomRecordFactory factory = new RandomRecordFactory(schema, settings, 1);
      List<byte[]> payloads = new ArrayList<>(EVENTS);
      double generate = 0;
      for (int round = 0; round < ROUNDS; round++) { // the last rounds count: JIT warm
        payloads.clear();
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < EVENTS; i++) payloads.add(codec.encode(factory.next()));
        generate = EVENTS / ((THREADS.getCurrentThreadCpuTime() - cpu) / 1e9);
      }
      long bytes = payloads.stream().mapToLong(p -> p.length).sum();
      double decode = 0;
      for (int round = 0; round < ROUNDS; round++) {
        long cpu = THREADS.getCurrentThreadCpuTime();
        int n = 0;
        for (byte[] p : payloads) if (codec.decode(p) != null) n++;
        decode = n / ((THREADS.getCurrentThreadCpuTime() - cpu) / 1e9);
        assertEquals(EVENTS, n);
      }
      System.out.printf("%-7s %10.0f %14.0f %14.0f %16.1f%n", format, (double) bytes / EVENTS, generate, decode,
          decode * bytes / EVENTS / 1e6);
      envelopeSizes(format, payloads);
    }
  }

  /** Message bytes per event, batched 100 to an envelope, and the single-thread unbatch+decompress rate. */
  private static void envelopeSizes(TransportFormat format, List<byte[]> payloads) {
    for (Compression c : Compression.values()) {
      List<byte[]> messages = new ArrayList<>();
      Envelope.Builder b = new Envelope.Builder(c);
      for (int i = 0; i < payloads.size(); i++) {
        b.add(new EventHeaders.Stamp(1, i, i), payloads.get(i));
        if (b.size() == 100) messages.add(b.finish(new RecordHeaders()));
      }
      long bytes = messages.stream().mapToLong(m -> m.length).sum();
      int events = messages.size() * 100;
      double rate = 0;
      for (int round = 0; round < ROUNDS; round++) {
        long cpu = THREADS.getCurrentThreadCpuTime();
        int[] n = {0};
        for (byte[] m : messages) Envelope.unbatch(m, c, e -> n[0]++);
        rate = n[0] / ((THREADS.getCurrentThreadCpuTime() - cpu) / 1e9);
        assertEquals(events, n[0]);
      }
      System.out.printf("  %-5s envelope of 100: %7.0f bytes/event (%.2fx of plain) | unbatch %,.0f events/s%n",
          c, (double) bytes / events, (double) bytes / events
              / (payloads.stream().limit(events).mapToLong(p -> p.length).sum() / (double) events), rate);
    }
  }

  /**
   * The shuffled write methods' coder on the default table record: heap bytes and nanoseconds per
   * decode with Avro's own coder and with {@link AvroRecordCoder} (strings read without Avro's
   * per-string class lookup), one thread, after warm-up rounds.
   */
  @Test
  void shuffleCoderDecode() throws Exception {
    Schema row = io.streamlab.schema.SystemColumns.tableRecordSchema(SchemaLoader.loadDefault());
    RandomRecordFactory events = new RandomRecordFactory(SchemaLoader.loadDefault(), GeneratorSettings.builder().build(), 1);
    org.apache.beam.sdk.extensions.avro.coders.AvroCoder<GenericRecord> avros =
        org.apache.beam.sdk.extensions.avro.coders.AvroCoder.of(row), ours = AvroRecordCoder.of(row);
    List<byte[]> encoded = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      avros.encode(io.streamlab.schema.SystemColumns.tableRecord(row, events.next(), 1, i, i), b);
      encoded.add(b.toByteArray());
    }
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) THREADS;
    for (int round = 0; round < ROUNDS; round++) { // the last rounds count: JIT warm
      for (var coder : List.of(avros, ours)) {
        long bytes = threads.getCurrentThreadAllocatedBytes(), cpu = THREADS.getCurrentThreadCpuTime();
        int n = 0;
        for (int k = 0; k < 100; k++) {
          for (byte[] e : encoded) {
            if (coder.decode(new java.io.ByteArrayInputStream(e)) != null) n++;
          }
        }
        System.out.printf("round %d %-22s %,8d heap bytes / decode %,8d ns / decode%n", round,
            coder == avros ? "Avro's AvroCoder" : "AvroRecordCoder", (threads.getCurrentThreadAllocatedBytes() - bytes) / n,
            (THREADS.getCurrentThreadCpuTime() - cpu) / n);
      }
    }
    for (byte[] e : encoded) {
      assertEquals(avros.decode(new java.io.ByteArrayInputStream(e)), ours.decode(new java.io.ByteArrayInputStream(e)));
    }
  }
}
