package io.streamlab.testing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs the repository's scripts (and the tools they need) from tests, each to its end or a timeout. */
public final class Commands {
  private Commands() {}

  /** @param exit -1 when the command timed out (it was then killed) */
  public record Result(int exit, String out) {}

  /** Runs {@code command}: its output to {@code dir}/out.txt (returned), its errors to {@code dir}/err.txt. */
  public static Result run(Path dir, Duration timeout, String... command) throws Exception {
    File out = dir.resolve("out.txt").toFile();
    Process p = new ProcessBuilder(command).redirectOutput(out).redirectError(dir.resolve("err.txt").toFile()).start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out after " + timeout);
    }
    return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8));
  }

  /**
   * The repository's Python script {@code scripts/NAME} (tests run from the module's directory);
   * the calling test is skipped, saying why, when the script or python3 is missing.
   */
  public static Path pythonScript(String name) {
    Path script = Path.of("..", "scripts", name).toAbsolutePath().normalize();
    Assumptions.assumeTrue(Files.isRegularFile(script), "no " + script);
    Assumptions.assumeTrue(available("python3", "--version"), "python3 is not installed: " + name + " cannot run");
    return script;
  }

  /** Runs {@code python3 script args...} in {@code dir} to its end or 30 s, as {@link #run}. */
  public static Result runPython(Path dir, Path script, String... args) throws Exception {
    String[] command = new String[args.length + 2];
    command[0] = "python3";
    command[1] = script.toString();
    System.arraycopy(args, 0, command, 2, args.length);
    return run(dir, Duration.ofSeconds(30), command);
  }

  /** Whether {@code command} (e.g. {@code python3 --version}) can be started and exits 0 within 10 s: for assumptions. */
  public static boolean available(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectOutput(new File("/dev/null")).redirectErrorStream(true).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }
}
