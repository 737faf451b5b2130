package io.streamlab.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SchemaLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * What the generator spends per event before the Kafka producer: a random record of the default
 * schema and its Thrift encoding, on one thread, in CPU microseconds, round by round (the first
 * rounds include the JIT's work). The generator shares the machine with the pipeline it feeds, so
 * its cost shows in every latency hold (docs/perf-notes.md, "machine AG"). Run alone:
 * {@code mvn -o -q test -pl streamlab-app -Dtest=GeneratorEncodeBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dbench.events} per round, default 1,000,000). Prints figures; asserts only that the
 * encoded events decode to the records they came from.
 */
class GeneratorEncodeBenchmark {
  @Test
  void randomRecordsAndTheirThriftEncoding() {
    Schema schema = SchemaLoader.loadDefault();
    RandomRecordFactory factory = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 1);
    PayloadCodec codec = TransportFormat.THRIFT.codec(schema);
    int events = Integer.getInteger("bench.events", 1_000_000);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= 5; round++) {
      long makeNanos = 0, encodeNanos = 0, bytes = 0;
      long cpuStart = cpu.getCurrentThreadCpuTime();
      for (int i = 0; i < events; i++) {
        long t0 = System.nanoTime();
        GenericRecord r = factory.next();
        long t1 = System.nanoTime();
        bytes += codec.encode(r).length;
        encodeNanos += System.nanoTime() - t1;
        makeNanos += t1 - t0;
      }
      double cpuMicros = (cpu.getCurrentThreadCpuTime() - cpuStart) / 1e3 / events;
      System.out.printf("generator round %d: %.2f CPU-us/event (wall: make %.2f us, encode %.2f us), %d B/event%n",
          round, cpuMicros, makeNanos / 1e3 / events, encodeNanos / 1e3 / events, bytes / events);
    }
    for (int i = 0; i < 1_000; i++) {
      GenericRecord r = factory.next();
      assertEquals(r.toString(), codec.decode(codec.encode(r)).toString());
    }
  }
}
