package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.pipeline.IngestStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The sampler pairs each ingestion report with the generator's count when it came. Driven by
 * hand ({@link Sampler#poll} with the test's clock, no thread): a pipeline that keeps up, reported
 * once a second while the generator sends 10,000 events a second.
 */
class SamplerTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private final AtomicReference<IngestStatus> status = new AtomicReference<>(written(0));
  private final AtomicLong reports = new AtomicLong();
  private final AtomicLong generated = new AtomicLong();

  private static IngestStatus written(long rows) {
    return new IngestStatus(true, rows, rows * 1_000, rows, 0, 50_000, 0, 0, Map.of());
  }

  /** A report of a pipeline that is through everything generated so far. */
  private void report() {
    status.set(written(generated.get()));
    reports.incrementAndGet();
  }

  @Test
  void aReportsBacklogIsTheGeneratorsCountWhenItCameLessWhatItSaysIsWritten() {
    Sampler sampler = new Sampler(status::get, reports::get, () -> 0.0, generated::get, false);
    long t = sampler.latest().nanos(); // the test's clock starts where the sampler's does
    for (int second = 1; second <= 5; second++) {
      generated.addAndGet(9_000); // sent before the report
      report();
      sampler.poll(t += 10_000_000); // the report found within a poll
      generated.addAndGet(1_000); // sent after it, before the next: the pipeline has not seen them yet
      Sampler.Counts seen = sampler.latest();
      sampler.poll(t += 500_000_000); // half a second later, no new report: nothing new
      assertSame(seen, sampler.latest(), "no sample without a report");
      t += SECOND / 2 - 10_000_000;
    }
    List<Sample> samples = sampler.samples();
    assertEquals(5, samples.size());
    for (Sample s : samples) assertEquals(0, s.backlog(), "caught up at every report");
    assertEquals(0, sampler.latest().backlog());
    // what the sampler did before: the newest report, and the generator's count at the sample
    assertEquals(1_000, generated.get() - sampler.latest().ingested());
  }

  @Test
  void theLiveLineComparesCountsOfOneMoment() {
    Sampler sampler = new Sampler(status::get, reports::get, () -> 0.0, generated::get, false);
    long t = sampler.latest().nanos(); // the test's clock starts where the sampler's does
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), generated::get,
        sampler::latest, 0);
    for (int second = 1; second <= 2; second++) {
      generated.addAndGet(10_000);
      report();
      sampler.poll(t += SECOND);
    }
    generated.addAndGet(7_000); // sent since the last report
    progress.print("measure");
    String line = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(line.contains("| backlog 0 |"), line);
    assertTrue(line.contains("ingested    10,000/s (20,000)"), line);
    assertTrue(line.contains("generated    10,000/s (27,000)"), line);
  }

  @Test
  void withoutReportsASampleIsTakenEverySecondAndAStalledReporterStillGetsSamples() {
    Sampler onDemand = new Sampler(status::get, () -> -1, () -> 0.0, generated::get, false);
    long t = onDemand.latest().nanos();
    onDemand.poll(t + SECOND / 2);
    onDemand.poll(t + SECOND + 1);
    onDemand.poll(t + SECOND + SECOND / 2);
    assertEquals(1, onDemand.samples().size(), "once a second where counters are read on demand");

    Sampler stalled = new Sampler(status::get, reports::get, () -> 0.0, generated::get, false);
    reports.set(3); // the first poll sees reports it has not seen
    stalled.poll(t + 1);
    for (int k = 1; k <= 6; k++) stalled.poll(t + k * SECOND);
    generated.addAndGet(5_000);
    stalled.poll(t + 7 * SECOND);
    assertEquals(3, stalled.samples().size(), "a report, then one every 3 s without one");
    assertEquals(5_000, stalled.latest().backlog(), "a stalled pipeline's backlog grows with what is sent");
  }
}
