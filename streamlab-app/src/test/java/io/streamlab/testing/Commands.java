package io.streamlab.testing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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
