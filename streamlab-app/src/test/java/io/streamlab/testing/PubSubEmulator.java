package io.streamlab.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Google's Pub/Sub emulator (gcloud's {@code pubsub-emulator} component, Debian package
 * google-cloud-cli-pubsub-emulator) on a free loopback port, for tests; skipped, saying so, where
 * it is not installed. A fake of the service by Google itself: the real client libraries talk to it.
 */
public final class PubSubEmulator implements AutoCloseable {
  public static final Path BINARY =
      Path.of("/usr/lib/google-cloud-sdk/platform/pubsub-emulator/bin/cloud-pubsub-emulator");

  private final Process process;
  private final int port;

  private PubSubEmulator(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts it (log in {@code log}) and waits until it listens; a JUnit assumption fails where it is not installed. */
  public static PubSubEmulator start(Path log) throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(BINARY),
        "Pub/Sub emulator not installed (" + BINARY + "): apt-get install google-cloud-cli-pubsub-emulator");
    int port = freePort();
    Process p = new ProcessBuilder(BINARY.toString(), "--host=127.0.0.1", "--port=" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    PubSubEmulator emulator = new PubSubEmulator(p, port);
    try {
      emulator.awaitListening();
    } catch (Exception e) {
      emulator.close();
      throw e;
    }
    return emulator;
  }

  /** host:port, as {@code PUBSUB_EMULATOR_HOST} takes it. */
  public String hostPort() {
    return "127.0.0.1:" + port;
  }

  private void awaitListening() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IllegalStateException("the Pub/Sub emulator exited: " + process.exitValue());
      try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("the Pub/Sub emulator did not listen on " + port + " within 60 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
  }
}
