package io.streamlab.store.postgres;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The local PostgreSQL for tests (127.0.0.1:5432, user postgres, trust auth, database test),
 * started if it is down; each call gets a fresh schema, dropped by {@link #drop}.
 */
public final class TestPostgres {
  private static final String BASE = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  private TestPostgres() {}

  /** @return a JDBC URL whose current schema is a new, empty one */
  public static String freshSchemaUrl(String prefix) throws Exception {
    ensureRunning();
    String schema = prefix + "_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
    try (Connection c = DriverManager.getConnection(BASE); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    }
    return BASE + "&currentSchema=" + schema;
  }

  public static void drop(String url) throws Exception {
    if (url == null) return;
    String schema = url.substring(url.indexOf("currentSchema=") + "currentSchema=".length());
    try (Connection c = DriverManager.getConnection(BASE); Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  private static void ensureRunning() throws Exception {
    if (reachable()) return;
    Path etc = Path.of("/etc/postgresql");
    assumeTrue(Files.isDirectory(etc), "PostgreSQL is not running at 127.0.0.1:5432 and is not installed here");
    String version;
    try (var versions = Files.list(etc)) {
      version = versions.map(p -> p.getFileName().toString()).findFirst().orElseThrow();
    }
    new ProcessBuilder("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start")
        .inheritIO().start().waitFor(60, TimeUnit.SECONDS);
    assumeTrue(reachable(), "PostgreSQL could not be started (pg_ctlcluster " + version + " main start)");
  }

  private static boolean reachable() {
    try (Connection c = DriverManager.getConnection(BASE)) {
      return c.isValid(5);
    } catch (Exception e) {
      return false;
    }
  }
}
