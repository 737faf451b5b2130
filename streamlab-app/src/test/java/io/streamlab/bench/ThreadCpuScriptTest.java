package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/thread-cpu} (what {@code bench-vs-peer --threads} runs beside each drain) against a
 * real JVM whose one worker thread first touches a known amount of fresh memory: the script must
 * find it by its command line, give that thread's group its CPU and at least that many minor page
 * faults.
 */
class ThreadCpuScriptTest {
  private static final int MEGABYTES = 256;

  /** The probe: a thread named "toucher" waits a second, zeroes {@link #MEGABYTES} of fresh direct memory, then stays busy a while. */
  public static final class Toucher {
    public static void main(String[] args) throws InterruptedException {
      Thread t = new Thread(() -> {
        try {
          Thread.sleep(1000); // thread-cpu finds the process within 0.2 s and must sample it before the touching
        } catch (InterruptedException e) {
          return;
        }
        List<ByteBuffer> kept = new ArrayList<>(); // kept, so that no page is given back and touched again
        for (int i = 0; i < MEGABYTES / 16; i++) kept.add(ByteBuffer.allocateDirect(16 << 20)); // zeroed as allocated
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        long x = 0;
        while (System.nanoTime() < until) x += kept.size();
        if (x == 42) System.out.println(x);
      }, "toucher");
      t.start();
      t.join();
    }
  }

  @Test
  void countsTheCpuAndThePageFaultsOfAThreadGroup(@TempDir Path dir) throws Exception {
    Path script = Path.of("..", "scripts", "thread-cpu").toAbsolutePath().normalize();
    Assumptions.assumeTrue(Files.isRegularFile(script), "no " + script);
    Assumptions.assumeTrue(runs("python3", "--version"), "python3 is not installed: thread-cpu cannot run");
    String tag = "faultprobe-" + UUID.randomUUID();
    Path out = dir.resolve("threads.json");
    Process sampler = new ProcessBuilder("python3", script.toString(), "--match=" + tag, "--interval=0.1",
        "--wait=60", "--out=" + out).redirectErrorStream(true).start();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process probe = new ProcessBuilder(java, "-XX:MaxDirectMemorySize=" + (2 * MEGABYTES) + "m", "-cp",
        System.getProperty("java.class.path"), Toucher.class.getName(), tag)
        .redirectOutput(dir.resolve("probe.log").toFile()).redirectErrorStream(true).start();
    assertTrue(probe.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
    assertEquals(0, probe.exitValue(), Files.readString(dir.resolve("probe.log")));
    assertTrue(sampler.waitFor(60, TimeUnit.SECONDS), "thread-cpu did not end");
    String printed = new String(sampler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, sampler.exitValue(), printed);

    JsonNode r = new ObjectMapper().readTree(out.toFile());
    assertEquals("toucher", r.get("busiestThreads").asText(), printed);
    assertTrue(r.get("groups").get("toucher").asDouble() > 0.5, printed); // it spun for 2 s
    long pages = MEGABYTES * 1024L * 1024 / 4096;
    long toucherFaults = r.get("minorFaultsByGroup").get("toucher").asLong();
    // each 4 KB page is one fault (more with the JVM's own bookkeeping); huge pages would make fewer,
    // but they are not used for malloc'd memory unless asked for
    assertTrue(toucherFaults >= pages * 9 / 10, "toucher faults " + toucherFaults + " < 90 % of " + pages + "\n" + printed);
    assertTrue(r.get("minorFaults").asLong() >= toucherFaults, printed);
    assertTrue(printed.contains("minor page faults"), printed);
  }

  private static boolean runs(String... command) {
    try {
      return new ProcessBuilder(command).redirectOutput(new File("/dev/null")).redirectErrorStream(true).start()
          .waitFor(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      return false;
    }
  }
}
