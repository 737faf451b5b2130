package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.testing.Commands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/thread-cpu} (what {@code bench-vs-peer --threads} runs beside each drain) against a
 * real JVM whose one worker thread first touches a known amount of fresh memory while another
 * sleeps a millisecond at a time: the script must find it by its command line, give the first
 * thread's group its CPU and at least that many minor page faults, and the second its context
 * switches. The probe starts only once the script says it follows the process, so that the first
 * sample cannot miss its work on a slow machine.
 */
class ThreadCpuScriptTest {
  private static final int MEGABYTES = 256;
  /** How often the probe's "sleeper" thread sleeps: each sleep is a voluntary context switch. */
  private static final int SLEEPS = 1000;

  /**
   * The probe: a thread named "toucher" waits for a line on stdin, zeroes {@link #MEGABYTES} of fresh
   * direct memory, then stays busy for 1.5 s of its own CPU; meanwhile "sleeper" sleeps {@link
   * #SLEEPS} times for a millisecond.
   */
  public static final class Toucher {
    public static void main(String[] args) throws InterruptedException {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      Thread sleeper = new Thread(() -> {
        try {
          go.await();
          for (int i = 0; i < SLEEPS; i++) Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "sleeper");
      sleeper.start();
      Thread t = new Thread(() -> {
        try {
          System.in.read();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        go.countDown();
        List<ByteBuffer> kept = new ArrayList<>(); // kept, so that no page is given back and touched again
        for (int i = 0; i < MEGABYTES / 16; i++) kept.add(ByteBuffer.allocateDirect(16 << 20)); // zeroed as allocated
        // busy for 1.5 s of its own CPU (a shared machine may give it far less than a core), at most 60 s
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long x = 0;
        while (cpu.getCurrentThreadCpuTime() < 1_500_000_000L && System.nanoTime() < until) {
          for (int k = 0; k < 100_000; k++) x += kept.size();
        }
        if (x == 42) System.out.println(x);
      }, "toucher");
      t.start();
      t.join();
      sleeper.join();
    }
  }

  @Test
  void countsTheCpuAndThePageFaultsOfAThreadGroup(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("thread-cpu");
    String tag = "faultprobe-" + UUID.randomUUID();
    Path out = dir.resolve("threads.json");
    Process sampler = new ProcessBuilder("python3", script.toString(), "--match=" + tag, "--interval=0.1",
        "--wait=60", "--out=" + out).redirectErrorStream(true).start();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process probe = new ProcessBuilder(java, "-XX:MaxDirectMemorySize=" + (2 * MEGABYTES) + "m", "-cp",
        System.getProperty("java.class.path"), Toucher.class.getName(), tag)
        .redirectOutput(dir.resolve("probe.log").toFile()).redirectErrorStream(true).start();
    var samplerOut = new BufferedReader(
        new InputStreamReader(sampler.getInputStream(), StandardCharsets.UTF_8));
    String first = samplerOut.readLine(); // null if thread-cpu gave up (after --wait) without finding the probe
    assertTrue(first != null && first.startsWith("thread-cpu: following pid "), "thread-cpu said: " + first);
    probe.getOutputStream().write('\n');
    probe.getOutputStream().close();
    assertTrue(probe.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
    assertEquals(0, probe.exitValue(), Files.readString(dir.resolve("probe.log")));
    assertTrue(sampler.waitFor(60, TimeUnit.SECONDS), "thread-cpu did not end");
    String printed = first + "\n" + samplerOut.lines().collect(Collectors.joining("\n"));
    assertEquals(0, sampler.exitValue(), printed);

    JsonNode r = new ObjectMapper().readTree(out.toFile());
    assertEquals("toucher", r.get("busiestThreads").asText(), printed);
    assertTrue(r.get("groups").get("toucher").asDouble() > 0.5, printed); // it spun for 1.5 s of CPU
    long pages = MEGABYTES * 1024L * 1024 / largestPageWithoutAsking();
    long toucherFaults = r.get("minorFaultsByGroup").get("toucher").asLong();
    // each page is one fault (more with the JVM's own bookkeeping); 4 KB pages unless the kernel is
    // set to give malloc'd memory huge pages without being asked (transparent huge pages "always")
    assertTrue(toucherFaults >= pages * 9 / 10, "toucher faults " + toucherFaults + " < 90 % of " + pages + "\n" + printed);
    assertTrue(r.get("minorFaults").asLong() >= toucherFaults, printed);
    assertTrue(printed.contains("minor page faults"), printed);
    // the spinning toucher's CPU is its own code: less than half in the kernel (page zeroing aside)
    assertTrue(r.get("systemSecondsByGroup").get("toucher").asDouble() < r.get("groups").get("toucher").asDouble(), printed);
    // each of the sleeper's sleeps blocked it: a voluntary switch (the busy interval may cut a few off)
    long sleeps = r.get("contextSwitchesByGroup").get("sleeper").get(0).asLong();
    assertTrue(sleeps >= SLEEPS / 2, "sleeper's voluntary switches " + sleeps + "\n" + printed);
    assertTrue(printed.contains("switches/s"), printed);
    // every sample's cumulative CPU per group, for --window: the toucher's last is its whole spin;
    // beside it the kernel's figures, the sleeper's last with all its sleeps
    JsonNode series = r.get("series");
    assertTrue(series.size() >= 3, printed);
    JsonNode lastSample = series.get(series.size() - 1);
    assertTrue(lastSample.get(1).get("toucher").asDouble() > 0.5, series.toString());
    assertTrue(lastSample.get(2).get("sleeper").get(1).asLong() >= SLEEPS / 2, lastSample.toString()); // the last sample may precede the last sleeps
  }

  /**
   * --window: a drain's samples cut to the interval its results.json says its CPU was measured
   * over, each group's CPU, system CPU and context switches interpolated between the samples around
   * the window's ends; samples without the kernel's figures (an older thread-cpu's) still cut.
   */
  @Test
  void cutsTheSamplesToTheRunsCpuWindow(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("thread-cpu");
    Path threads = dir.resolve("threads.json");
    // "reader" runs at one core all along; "C2 CompilerThread" compiles for the first 2 s only
    // and "reader" spends a quarter of its CPU in the kernel, switching 100 + 10 times a second
    Files.writeString(threads, "{\"groups\": {}, \"series\": ["
        + "[100.0, {\"reader\": 0.0, \"C CompilerThread\": 0.0}, {\"reader\": [0.0, 0, 0]}],"
        + "[102.0, {\"reader\": 2.0, \"C CompilerThread\": 1.0}, {\"reader\": [0.5, 200, 20]}],"
        + "[104.0, {\"reader\": 4.0, \"C CompilerThread\": 1.0}, {\"reader\": [1.0, 400, 40]}]]}");
    Path results = dir.resolve("results.json");
    Files.writeString(results, "{\"ingestion\": {\"cpuWindowEpochMicros\": [101000000, 103000000]}}");

    String printed = window(script, results, threads, 0);
    JsonNode w = new ObjectMapper().readTree(threads.toFile()).get("window");
    assertEquals(2.0, w.get("seconds").asDouble(), 1e-9, printed);
    assertEquals(2.0, w.get("groups").get("reader").asDouble(), 1e-9, printed);
    assertEquals(0.5, w.get("groups").get("C CompilerThread").asDouble(), 1e-9, printed); // the second half of its first sample interval
    assertEquals(2.5, w.get("cpuSeconds").asDouble(), 1e-9, printed);
    assertTrue(printed.contains("80.0 %   25.0 % system      100 +    10 switches/s  reader"), printed);
    assertEquals(0.5, w.get("systemSecondsByGroup").get("reader").asDouble(), 1e-9, printed);
    assertEquals(100.0, w.get("contextSwitchesPerSecondByGroup").get("reader").get(0).asDouble(), 1e-9, printed);
    assertEquals(10.0, w.get("contextSwitchesPerSecondByGroup").get("reader").get(1).asDouble(), 1e-9, printed);
    assertEquals(0.0, w.get("systemSecondsByGroup").get("C CompilerThread").asDouble(), 1e-9, printed);

    // an older thread-cpu's samples: CPU only
    Files.writeString(threads, "{\"groups\": {}, \"series\": [[100.0, {\"reader\": 0.0}], [104.0, {\"reader\": 4.0}]]}");
    String older = window(script, results, threads, 0);
    assertTrue(older.contains("100.0 %  reader"), older);
    assertTrue(!new ObjectMapper().readTree(threads.toFile()).get("window").has("systemSecondsByGroup"), older);

    // a window the samples do not cover is refused, not extrapolated
    Files.writeString(results, "{\"ingestion\": {\"cpuWindowEpochMicros\": [99000000, 103000000]}}");
    String refused = window(script, results, threads, 1);
    assertTrue(refused.contains("do not cover"), refused);
  }

  /** Runs {@code thread-cpu --window}, checks its exit code, returns what it printed. */
  private static String window(Path script, Path results, Path threads, int exit) throws Exception {
    Process p = new ProcessBuilder("python3", script.toString(), "--window=" + results, threads.toString())
        .redirectErrorStream(true).start();
    String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "thread-cpu did not end");
    assertEquals(exit, p.exitValue(), printed);
    return printed;
  }

  /**
   * The largest page the kernel may give anonymous memory nobody madvise()d: 4 KB, 2 MB where
   * transparent huge pages are "always", or a multi-size THP size set to "always" (Linux 6.8+).
   */
  private static long largestPageWithoutAsking() throws IOException {
    Path thp = Path.of("/sys/kernel/mm/transparent_hugepage");
    boolean always = Files.isReadable(thp.resolve("enabled"))
        && Files.readString(thp.resolve("enabled")).contains("[always]");
    long largest = always ? 2L << 20 : 4096;
    if (Files.isDirectory(thp)) {
      try (var sizes = Files.newDirectoryStream(thp, "hugepages-*kB")) {
        for (Path size : sizes) {
          String mode = Files.isReadable(size.resolve("enabled")) ? Files.readString(size.resolve("enabled")) : "";
          if (mode.contains("[always]") || (always && mode.contains("[inherit]"))) {
            String kb = size.getFileName().toString().replaceAll("\\D", "");
            largest = Math.max(largest, Long.parseLong(kb) * 1024);
          }
        }
      }
    }
    return largest;
  }
}
