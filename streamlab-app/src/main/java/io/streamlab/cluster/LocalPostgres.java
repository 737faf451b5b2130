package io.streamlab.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine's own PostgreSQL server (Debian's pg_ctlcluster), the cluster's table store. It is
 * shared with everything else on the machine: streamlab starts it only if it is down (and then
 * stops it again on {@code cluster down}), and never changes its configuration. Connects as the
 * user in the URL with the password from STREAMLAB_PG_PASSWORD/PGPASSWORD if any (see
 * PostgresStore), here 127.0.0.1:5432 with trust authentication.
 */
public final class LocalPostgres {
  static final String JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

  private LocalPostgres() {}

  public static boolean reachable() {
    try (Connection c = DriverManager.getConnection(JDBC_URL)) {
      return c.isValid(5);
    } catch (Exception e) {
      return false;
    }
  }

  /** @return true if it had to be started */
  static boolean ensureRunning() throws IOException, InterruptedException {
    if (reachable()) return false;
    ctl("start");
    awaitReachable();
    return true;
  }

  /**
   * pg_ctlcluster restart, fast mode (a fault: every connection is cut; the outage lasts as long
   * as a stop and a start, a second or two here), then waits until it serves again. The server is
   * shared with everything else on the machine, so it is brought back up whatever happens.
   */
  public static void restart() throws IOException, InterruptedException {
    try {
      ctl("restart", "--mode=fast");
    } finally {
      if (!reachable()) startQuietly();
    }
    awaitReachable();
  }

  private static void startQuietly() {
    try {
      ctl("start");
    } catch (Exception e) {
      System.err.println("[streamlab] PostgreSQL did not come back up: " + e.getMessage());
    }
  }

  /**
   * True if {@code jdbcUrl} names this machine's server (127.0.0.1, localhost, ::1; port 5432 or
   * none), the one {@link #restart} restarts.
   */
  public static boolean isLocal(String jdbcUrl) {
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("jdbc:postgresql://(\\[::1\\]|127\\.0\\.0\\.1|localhost)(:5432)?(/.*)?")
        .matcher(jdbcUrl);
    return m.matches();
  }

  static void stop() throws IOException, InterruptedException {
    ctl("stop");
  }

  private static void awaitReachable() throws InterruptedException {
    for (int i = 0; i < 120 && !reachable(); i++) Thread.sleep(500);
    if (!reachable()) throw new IllegalStateException("PostgreSQL is not reachable at " + JDBC_URL);
  }

  private static void ctl(String action, String... options) throws IOException, InterruptedException {
    Path etc = Path.of("/etc/postgresql");
    if (!Files.isDirectory(etc)) {
      throw new IllegalStateException("PostgreSQL is not reachable at 127.0.0.1:5432 and no local server is installed "
          + "(/etc/postgresql); point streamlab at one with --store=postgres --jdbcUrl=...");
    }
    String version;
    try (var versions = Files.list(etc)) {
      version = versions.map(p -> p.getFileName().toString()).sorted().findFirst().orElseThrow();
    }
    List<String> cmd = new java.util.ArrayList<>(List.of("pg_ctlcluster", "--skip-systemctl-redirect"));
    cmd.addAll(List.of(options));
    cmd.addAll(List.of(version, "main", action));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("pg_ctlcluster " + version + " main " + action + " failed: " + out.strip());
    }
  }
}
