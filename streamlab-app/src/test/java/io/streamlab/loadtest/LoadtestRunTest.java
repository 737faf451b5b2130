package io.streamlab.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.report.ReportFiles;
import io.streamlab.testing.KafkaBroker;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Load tests against a real embedded Kafka broker: correctness of the counts and of the latency measurement. */
class LoadtestRunTest {
  @RegisterExtension static final KafkaBroker kafka = new KafkaBroker();
  private static final AtomicInteger TOPICS = new AtomicInteger();
  private static final PrintStream OUT = System.out;

  @TempDir static Path dir;

  private static LoadtestSettings settings(double rate, Duration burnIn, Duration window, Duration backlogBuild) {
    String name = "lt-" + TOPICS.incrementAndGet();
    return new LoadtestSettings(Role.BOTH, name, name, 2, MessageSizes.parse("1KB"), 1, 1, 2, 1, rate, burnIn, window,
        backlogBuild, Duration.ofMillis(500), Duration.ofSeconds(30), ClientSettings.DEFAULTS, 0, 42);
  }

  private static KafkaDriver kafkaDriver() {
    return new KafkaDriver(kafka.bootstrapServers(), ClientSettings.DEFAULTS);
  }

  @Test
  void shortRunCountsEveryMessageOnceAndFiguresAddUp() throws Exception {
    LoadtestSettings s = settings(2_000, Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ZERO);
    PointResult r = new LoadtestRun(kafkaDriver(), s, "short", OUT).run();
    OUT.print(r.summary());

    assertTrue(r.published() > 0, r.summary());
    assertEquals(0, r.publishErrors(), r.summary());
    assertEquals(0, r.missing(), r.summary());
    assertEquals(0, r.duplicates(), r.summary());
    assertEquals(r.handedToClient(), r.published(), "every message handed to the client was acknowledged");
    assertEquals(r.published(), r.received(), "messages counted = messages published");
    assertEquals(r.published(), r.receivedDistinct());
    // a rate-limited publisher never runs ahead of its schedule: 2,000/s for 4 s at most
    assertTrue(r.published() <= 2_000 * 4 + s.publishingThreads(), r.summary());
    // the per-interval rates integrate back to the totals
    assertEquals(r.published(), integrate(r.samples(), IntervalSample::publishMessagesPerSecond), 1.0);
    assertEquals(r.received(), integrate(r.samples(), IntervalSample::subscribeMessagesPerSecond), 1.0);
    assertEquals(r.published() / 1e6 * 1_000, integrate(r.samples(), IntervalSample::publishMegabytesPerSecond), 1e-3,
        "1 KB messages: MB published = messages x 1000 bytes");
    // the window's latency histograms hold exactly the window's messages... published ones for
    // publish latency; end-to-end counts every reception in the window's intervals
    assertTrue(r.publishLatency().count() > 0 && r.endToEnd().count() > 0, r.summary());
    assertTrue(r.endToEnd().p50() <= r.endToEnd().p99() && r.endToEnd().p99() <= r.endToEnd().max());
    assertTrue(r.backlogAtWindowEnd() >= 0, "backlog known when publishing and subscribing");

    LoadtestReport report = new LoadtestReport("none", List.of(r), null, Loadtest.machine());
    Path out = dir.resolve("reports");
    Loadtest.write(report, out);
    List<String> csv = Files.readAllLines(out.resolve("loadtest.csv"));
    assertEquals(3, csv.size(), "header + publisher row + subscriber row: " + csv);
    assertEquals("point,driver,side,clients,cores,message_size_bytes,threads,msgs_per_sec,mb_per_sec,p50_ms,p90_ms,"
        + "p99_ms,p99_9_ms,max_ms,published,received,missing,duplicates,errors,cpu_cores", csv.get(0),
        "the original framework's columns, in its order");
    assertTrue(csv.get(1).startsWith("short,kafka,publisher,1,2,1000,2,"), csv.get(1));
    JsonNode json = ReportFiles.JSON.readTree(out.resolve("loadtest.json").toFile());
    assertEquals(r.samples().size(), json.at("/points/0/samples").size());
    assertEquals("1KB", json.at("/points/0/settings/messageSizes").asText());
    String html = Files.readString(out.resolve("loadtest.html"));
    assertTrue(html.contains("<svg") && html.contains("polyline"), "charts in the HTML report");
  }

  private static double integrate(List<IntervalSample> samples, java.util.function.ToDoubleFunction<IntervalSample> rate) {
    double sum = 0, previous = 0;
    for (IntervalSample s : samples) {
      sum += rate.applyAsDouble(s) * (s.elapsedSeconds() - previous);
      previous = s.elapsedSeconds();
    }
    return sum;
  }

  /** A producer-only run fills a topic; a consumer-only run reads it all back, without gaps. */
  @Test
  void producerOnlyThenConsumerOnlyAgree() throws Exception {
    String name = "lt-split-" + TOPICS.incrementAndGet();
    PointResult pub = new LoadtestRun(kafkaDriver(), oneSide(Role.PUBLISH, name), "publish-only", OUT).run();
    OUT.print(pub.summary());
    PointResult sub = new LoadtestRun(kafkaDriver(), oneSide(Role.SUBSCRIBE, name), "subscribe-only", OUT).run();
    OUT.print(sub.summary());
    assertTrue(pub.published() > 0, pub.summary());
    assertEquals(0, pub.received());
    assertEquals(-1, pub.backlogAtWindowEnd(), "no backlog figure without a subscribing side");
    assertEquals(pub.published(), sub.receivedDistinct(), sub.summary());
    assertEquals(0, sub.missing(), "no sequence gaps: " + sub.summary());
    assertEquals(0, sub.duplicates(), sub.summary());
  }

  /**
   * A consumer-only run on a loaded machine can sit longer than its quiet spell between two polls;
   * while the broker still holds messages for it (Kafka: its lag), it reads on. A stall of 3 s near
   * the end, past the window, used to end the run with the rest of the topic unread.
   */
  @Test
  void aSubscribeOnlyRunReadsOnThroughAStallWhileTheBrokerHoldsMessagesForIt() throws Exception {
    String name = "lt-split-stall-" + TOPICS.incrementAndGet();
    PointResult pub = new LoadtestRun(kafkaDriver(), oneSide(Role.PUBLISH, name), "publish-only", OUT).run();
    BrokerDriver stalling = new StallingDriver(kafkaDriver(), StallingDriver.Side.SUBSCRIBER, pub.published() - 100, 3_000);
    PointResult sub = new LoadtestRun(stalling, oneSide(Role.SUBSCRIBE, name), "subscribe-only", OUT).run();
    OUT.print(sub.summary());
    assertEquals(pub.published(), sub.receivedDistinct(), sub.summary());
    assertEquals(0, sub.missing(), sub.summary());
  }

  private static LoadtestSettings oneSide(Role role, String topic) {
    return new LoadtestSettings(role, topic, topic, 2, MessageSizes.parse("1KB"), 1, 1, 2, 1, 2_000,
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ZERO, Duration.ofMillis(500), Duration.ofSeconds(30),
        ClientSettings.DEFAULTS, 0, 42);
  }

  /** Messages over Kafka's 1 MB defaults: the driver raises topic, producer and request limits. */
  @Test
  void largeMessagesPassTheBrokerLimits() throws Exception {
    LoadtestSettings s = settings(4, Duration.ZERO, Duration.ofMillis(1_500), Duration.ZERO)
        .withMessageSizes(MessageSizes.parse("3MB"));
    PointResult r = new LoadtestRun(kafkaDriver(), s, "3MB", OUT).run();
    OUT.print(r.summary());
    assertEquals(0, r.publishErrors(), r.summary());
    assertTrue(r.published() > 0, r.summary());
    assertEquals(r.published(), r.receivedDistinct(), r.summary());
    assertEquals(0, r.duplicates(), r.summary());
  }

  @Test
  void backlogIsBuiltThenDrained() throws Exception {
    LoadtestSettings s = settings(2_000, Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(1));
    PointResult r = new LoadtestRun(kafkaDriver(), s, "backlog", OUT).run();
    OUT.print(r.summary());
    assertNotNull(r.backlogDrain());
    assertTrue(r.backlogDrain().complete(), r.summary());
    assertTrue(r.backlogDrain().messages() > 0, "published with no subscriber: " + r.summary());
    assertEquals(r.backlogDrain().messages() * 1_000, r.backlogDrain().bytes());
    assertEquals(0, r.missing(), r.summary());
    assertEquals(0, r.duplicates(), r.summary());
    assertEquals(r.published(), r.receivedDistinct());
  }

  /**
   * A subscriber that stops for 1.5 s: every message published meanwhile waits, and latency
   * measured from the intended send time shows it for all of them, not only the one the
   * subscriber was handling.
   */
  @Test
  void stalledSubscriberShowsInEndToEndLatency() throws Exception {
    PointResult r = runWithStall(StallingDriver.Side.SUBSCRIBER);
    assertTrue(r.endToEnd().max() >= STALL_MILLIS, r.summary());
    // ~rate x stall messages queued behind the stall, their latencies spread over 0..1.5 s:
    // about half of them waited over 0.75 s. Far more than 1 % of the window's messages.
    assertTrue(r.endToEnd().p99() >= STALL_MILLIS / 2.0, r.summary());
  }

  private static final long STALL_MILLIS = 1_500;
  private static final double STALL_TEST_RATE = 1_000;

  /** 1,000 msg/s for 0.5 s burn-in + 4 s window, one 1.5 s stall after 1,500 messages (in the window). */
  private static PointResult runWithStall(StallingDriver.Side side) throws Exception {
    LoadtestSettings s = settings(STALL_TEST_RATE, Duration.ofMillis(500), Duration.ofSeconds(4), Duration.ZERO);
    BrokerDriver driver = new StallingDriver(kafkaDriver(), side, 1_500, STALL_MILLIS);
    PointResult r = new LoadtestRun(driver, s, "stalled-" + side.name().toLowerCase(), OUT).run();
    OUT.print(r.summary());
    assertEquals(0, r.missing(), r.summary());
    assertEquals(0, r.duplicates(), r.summary());
    return r;
  }

  /**
   * A publisher whose client blocks for 1.5 s (as a full buffer or a metadata fetch does): the
   * messages scheduled during the block leave late but keep their intended send times, so the
   * stall shows in publish delay and end-to-end latency instead of being omitted, and the
   * publisher catches up with its schedule instead of silently sending fewer messages.
   */
  @Test
  void stalledPublisherIsNotCoordinatedAway() throws Exception {
    PointResult r = runWithStall(StallingDriver.Side.PUBLISHER);
    assertTrue(r.publishDelay().max() >= STALL_MILLIS * 0.9, r.summary());
    assertTrue(r.endToEnd().max() >= STALL_MILLIS * 0.9, r.summary());
    // the stalled thread's messages (half of them: 2 threads) each carry part of the stall
    assertTrue(r.endToEnd().p99() >= STALL_MILLIS / 2.0, r.summary());
    // the schedule is kept: the count is the schedule's (4.5 s x 1,000/s), not 1.5 s fewer
    assertTrue(r.published() > STALL_TEST_RATE * 4.5 * 0.9, r.summary());
  }
}
