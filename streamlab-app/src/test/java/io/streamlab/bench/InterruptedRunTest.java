package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.process.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped from outside (Ctrl-C, SIGTERM) removes its embedded broker's data as a finished
 * run does: after a long run that data is gigabytes, and runs interrupted one after another filled
 * a disk with it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class InterruptedRunTest {
  @TempDir Path dir;

  @Test
  void anInterruptedRunLeavesNoBrokerData() throws Exception {
    Path runDir = dir.resolve("run");
    Path data = runDir.resolve("kafka").resolve("data");
    Path out = dir.resolve("run.out");
    Process p = JavaProcess.builder("io.streamlab.cli.Main").jvmOptions(List.of("-Xmx1g"))
        .args(List.of("run", "--duration=120s", "--warmup=0s", "--ratePerSec=2000", "--parallelism=1",
            "--progressInterval=5s", "--runDir=" + runDir))
        .startLoggingTo(out);
    try {
      // interrupted once events flow: its first progress line
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!Files.readString(out).contains(" generated ") && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(500);
      }
      assertTrue(p.isAlive(), "the run ended before it was interrupted: " + Files.readString(out));
      assertTrue(Files.exists(data), "the broker has data to remove: " + Files.readString(out));
      p.destroy(); // SIGTERM, as Ctrl-C or a scheduler's stop
      assertTrue(p.waitFor(1, TimeUnit.MINUTES), "the run stopped within a minute of SIGTERM");
    } finally {
      if (p.isAlive()) p.destroyForcibly();
    }
    assertFalse(Files.exists(data), "the broker's data is gone: " + Files.readString(out));
    assertTrue(Files.exists(runDir.resolve("kafka").resolve("kafka.log")), "its log stays for a post-mortem");
  }
}
