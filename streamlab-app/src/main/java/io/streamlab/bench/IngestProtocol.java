package io.streamlab.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How {@code streamlab run} talks to its {@code streamlab ingest} child, both ends in one place so
 * they cannot drift apart: the child prints a status line ({@code IngestStatus}) every
 * {@code --statusIntervalMs}; a line {@value #MARK} on its standard input ends the current latency
 * interval at once (which prints a status line); closing its standard input asks it to stop. If
 * the parent dies, the child's standard input closes too, so no orphan keeps a DuckDB file locked.
 */
public final class IngestProtocol {
  /** The ingest flag that makes the child follow this protocol. */
  public static final String FLAG = "--stopOnStdinClose";
  static final String MARK = "mark";

  private IngestProtocol() {}

  /** Parent side: asks the child to end its latency interval now. */
  static void sendMark(OutputStream childStdin) throws IOException {
    childStdin.write((MARK + "\n").getBytes(StandardCharsets.UTF_8));
    childStdin.flush();
  }

  /**
   * Child side: a daemon thread reading {@code in}, running {@code onMark} for each mark and
   * {@code onClose} once it closes.
   */
  public static void serve(InputStream in, Runnable onMark, Runnable onClose) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          if (line.trim().equals(MARK)) onMark.run();
        }
      } catch (IOException ignored) {
        // closed either way
      }
      onClose.run();
    }, "stdin-watch");
    t.setDaemon(true);
    t.start();
  }
}
