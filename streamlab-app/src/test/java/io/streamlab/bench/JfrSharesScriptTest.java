package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.Commands;
import io.streamlab.testing.Commands.Result;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/jfr-shares} on a JFR recording of a real JVM whose one named thread spins in one
 * method: the thread's pool number folded, its samples found by --thread, the method it spins in on
 * every one of their stacks and at the top of some.
 */
class JfrSharesScriptTest {
  /** Spins a thread named "burner-17" in {@link #burn} for its argument's seconds. */
  public static final class Burner {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
      Thread t = new Thread(() -> burn(until), "burner-17");
      t.start();
      t.join();
    }

    static void burn(long until) {
      long x = 1;
      while (System.nanoTime() < until) {
        for (int i = 0; i < 1_000_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
      }
      sink = x;
    }
  }

  @Test
  void sharesOfAThreadsSamplesWithItsNumbersFolded(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("jfr-shares");
    Assumptions.assumeTrue(Commands.available("jfr", "--version"), "the JDK's jfr tool is not on PATH");
    Path jfr = dir.resolve("burn.jfr");
    String java = ProcessHandle.current().info().command().orElse("java");
    Result burned = Commands.run(dir, Duration.ofSeconds(60), java, "-XX:StartFlightRecording=settings=profile,filename=" + jfr,
        "-cp", System.getProperty("java.class.path"), Burner.class.getName(), "3");
    assertEquals(0, burned.exit(), burned.out());

    Result r = Commands.runPython(dir, script, "--thread=^burner", "--top=3", jfr.toString());
    assertEquals(0, r.exit(), r.out());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.get(0).matches("\\d+ execution samples of threads matching \\^burner"), r.out());
    assertEquals(" 100.0 %  burner-#", lines.get(lines.indexOf("== threads") + 1), r.out());
    String burn = Burner.class.getName() + ".burn(long)";
    assertTrue(lines.contains(" 100.0 %  " + burn), r.out());
    assertTrue(lines.subList(lines.indexOf("== self"), lines.size()).stream().anyMatch(l -> l.endsWith(burn)), r.out());

    Result none = Commands.runPython(dir, script, "--thread=nothing", jfr.toString());
    assertTrue(none.exit() != 0, none.out());
    assertEquals(2, Commands.runPython(dir, script).exit(), "a file is required");
  }
}
