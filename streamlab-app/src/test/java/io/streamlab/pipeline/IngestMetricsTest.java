package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The per-batch and per-bundle recording of IngestMetrics gives what per-element recording gave. */
class IngestMetricsTest {
  @Test
  void aBatchsLatenciesGiveTheHistogramOfEachRecordedAlone() {
    IngestMetrics metrics = IngestMetrics.get();
    metrics.intervalLatency(); // whatever an earlier test in this JVM left
    Random random = new Random(7);
    long[] ages = new long[20_000];
    long age = 50_000;
    for (int i = 0; i < ages.length; i++) {
      // mostly a slow walk (runs of one bucket, as in a batch), sometimes a jump, out of range at both ends
      age = random.nextInt(10) == 0 ? random.nextInt(2_000_000) : age + random.nextInt(40) - 10;
      ages[i] = i % 997 == 0 ? -5 : i % 1009 == 0 ? 5_000_000_000L : age;
    }
    int used = ages.length - 123; // only the first `count` ages are the batch's
    Histogram expected = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < used; i++) expected.recordValue(Math.max(0, Math.min(ages[i], 3_600_000_000L)));

    metrics.recordLatencies(ages, used);
    Histogram got = metrics.intervalLatency();

    assertEquals(used, got.getTotalCount());
    assertEquals(expected, got, "bucket counts, min and max");
    assertEquals(expected.getValueAtPercentile(99), got.getValueAtPercentile(99));
  }

  @Test
  void aTallyAddsItsCountsOnlyWhenFlushedAndThenStartsAgain() {
    IngestMetrics.StageCounter stage = IngestMetrics.get().stage(Stage.UNBATCH);
    var before = stage.snapshot();
    IngestMetrics.Tally tally = stage.tally();
    tally.record(2, 100, 30, 2, 4_000);
    tally.record(1, 50, 10);
    assertEquals(before, stage.snapshot(), "nothing shared before the flush");
    tally.flush();
    tally.flush(); // a second flush adds nothing
    var after = stage.snapshot();
    assertEquals(before.elements() + 3, after.elements());
    assertEquals(before.bytes() + 150, after.bytes());
    assertEquals(before.busyNanos() + 40, after.busyNanos());
    assertEquals(before.latencyCount() + 2, after.latencyCount());
    assertEquals(before.latencyMicros() + 4_000, after.latencyMicros());
  }

  /** Within a long bundle a tally says it is due once every FLUSH_NANOS of the caller's clock readings. */
  @Test
  void aTallyIsDueAtItsFirstReadingAndThenOncePerFlushInterval() {
    IngestMetrics.Tally tally = IngestMetrics.get().stage(Stage.UNBATCH).tally();
    long t = -5_000_000_000L; // System.nanoTime may be negative
    assertEquals(true, tally.flushDue(t));
    assertEquals(false, tally.flushDue(t + IngestMetrics.Tally.FLUSH_NANOS - 1));
    assertEquals(true, tally.flushDue(t + IngestMetrics.Tally.FLUSH_NANOS));
    assertEquals(false, tally.flushDue(t + IngestMetrics.Tally.FLUSH_NANOS + 1), "counted from the last time it was due");
  }
}
