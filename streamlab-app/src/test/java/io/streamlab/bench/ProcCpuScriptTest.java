package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.Commands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/proc-cpu} (the per-process probe run beside a latency run) against a real JVM that
 * spins one thread, named by its main class and a subcommand-like argument as streamlab's JVMs are:
 * the probe must label it as it labels them, give it about a core's worth of CPU in its busy
 * seconds and never more than the machine's cores.
 */
class ProcCpuScriptTest {
  /** The spinning JVM: one thread busy for its second argument's seconds of wall time. */
  public static final class Spinner {
    public static void main(String[] args) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
      long x = 0;
      while (System.nanoTime() < until) x += System.identityHashCode(args);
      if (x == 42) System.out.println(x);
    }
  }

  @Test
  void labelsAJvmByItsMainClassAndSubcommandAndCountsItsCpuPerSecond(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("proc-cpu");
    Path out = dir.resolve("cpu.csv");
    Process probe = new ProcessBuilder("python3", script.toString(), "--seconds=5", "--out=" + out)
        .redirectErrorStream(true).redirectOutput(dir.resolve("probe.log").toFile()).start();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process spinner = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        Spinner.class.getName(), "spin", "4").redirectErrorStream(true)
        .redirectOutput(dir.resolve("spinner.log").toFile()).start();
    assertTrue(spinner.waitFor(60, TimeUnit.SECONDS), "the spinner did not end");
    assertTrue(probe.waitFor(60, TimeUnit.SECONDS), "proc-cpu did not end");
    assertEquals(0, probe.exitValue(), Files.readString(dir.resolve("probe.log")));

    List<String> lines = Files.readAllLines(out);
    assertEquals("utc,pid,label,cpu_ms", lines.get(0));
    String label = "java:ProcCpuScriptTest$Spinner:spin"; // the main class's simple name, then the first argument
    String pid = Long.toString(spinner.pid());
    double spun = 0;
    double mostInASecond = 0;
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      assertEquals(4, f.length, line);
      if (f[1].equals(pid)) {
        assertEquals(label, f[2], line);
        spun += Double.parseDouble(f[3]);
        mostInASecond = Math.max(mostInASecond, Double.parseDouble(f[3]));
      }
    }
    String all = String.join("\n", lines);
    // the spinner is busy for 4 s of wall time: a shared machine may give it less, never nothing
    assertTrue(spun >= 1000, "the spinner's CPU " + spun + " ms\n" + all);
    // one busy thread (and the JVM's start-up, JIT and GC beside it) on this machine's cores
    int cores = Runtime.getRuntime().availableProcessors();
    assertTrue(mostInASecond <= cores * 1000 + 100, "more than " + cores + " cores in a second\n" + all);
  }
}
