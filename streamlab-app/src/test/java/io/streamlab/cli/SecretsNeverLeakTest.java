package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.process.JavaProcess;
import io.streamlab.store.JdbcUrls;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.postgres.PostgresStore;
import io.streamlab.store.postgres.TestPostgres;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secrets rule: a PostgreSQL password reaches streamlab only through the environment
 * (STREAMLAB_PG_PASSWORD) or a file (--passwordFile), and never appears in what a run leaves
 * behind. A real ingestion (streamlab run, its own JVM, with the ingestion child, Kafka and
 * Flink) runs with a sentinel password each way; the local server's trust authentication accepts
 * any password, so the run succeeds with the sentinel handed to the JDBC driver. Then every file of the run directory (results.json,
 * report.html, timeseries.csv, summary.txt, ingest.log, Kafka's logs and data, ...) and the process
 * output must be free of it. A --jdbcUrl carrying credentials in any form is refused without echoing
 * them, and a connection error prints the URL masked.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecretsNeverLeakTest {
  @TempDir Path dir;

  @Test
  void passwordFromTheEnvironmentNeverLeaks() throws Exception {
    String sentinel = sentinel();
    assertNoLeak("env", sentinel, List.of(), sentinel, null);
  }

  @Test
  void passwordFromAFileNeverLeaks() throws Exception {
    String sentinel = sentinel();
    Path file = dir.resolve("pg-password");
    Files.writeString(file, sentinel + "\n");
    assertNoLeak("file", sentinel, List.of("--passwordFile=" + file), null, file);
  }

  /** One URL per form a credential can take in a JDBC URL; SECRET stands for the sentinel. */
  static List<String> credentialForms() {
    return List.of(
        "jdbc:postgresql://postgres:SECRET@127.0.0.1:5432/postgres",        // user-info with password
        "jdbc:postgresql://SECRET@127.0.0.1:5432/postgres",                 // user-info alone
        "jdbc:postgresql://127.0.0.1:5432/test?password=SECRET",            // ?password=
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=SECRET", // &password=
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&PassWord=SECRET", // any case
        "jdbc:postgresql://127.0.0.1:5432/test;password=SECRET",            // ;password= (SQL Server style)
        "jdbc:postgresql://127.0.0.1:5432/test?sslpassword=SECRET",         // another secret key
        "jdbc:postgresql://127.0.0.1:5432/test {password: SECRET}",         // properties-style
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&pass%77ord=SECRET", // URL-encoded key
        "jdbc:postgresql://postgres%3ASECRET%40127.0.0.1:5432/postgres".replace("%40", "@"), // encoded user-info
        "jdbc:mysql://db/x?Password=SECRET",                                // not PostgreSQL, still not echoed
        "jdbc:oracle:thin:scott/SECRET@//db:1521/svc");                     // Oracle user/password@
  }

  @ParameterizedTest
  @MethodSource("credentialForms")
  void aJdbcUrlWithCredentialsIsRefusedWithoutRepeatingThem(String form) {
    String sentinel = sentinel();
    String url = form.replace("SECRET", sentinel);
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    int code = cl.execute("run", "--store=postgres", "--jdbcUrl=" + url, "--duration=1s", "--runDir=" + dir.resolve("refused"));
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("must not carry the password"), err.toString());
    assertFalse(err.toString().contains(sentinel), "the refusal repeats the secret: " + err);
    assertFalse(Files.exists(dir.resolve("refused")), "refused before the run directory exists");
  }

  @ParameterizedTest
  @MethodSource("credentialForms")
  void maskingRemovesTheSecretInEveryForm(String form) {
    String sentinel = sentinel();
    String url = form.replace("SECRET", sentinel);
    assertTrue(JdbcUrls.hasCredentials(url), url);
    String masked = JdbcUrls.mask("cannot connect to " + url + ": refused");
    assertFalse(masked.contains(sentinel), masked);
    assertTrue(masked.contains("***"), masked);
  }

  @Test
  void aUrlWithoutCredentialsIsNeitherRefusedNorChanged() {
    for (String url : List.of("jdbc:postgresql://127.0.0.1:5432/postgres",
        "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres&currentSchema=sl_run_1&sslmode=disable")) {
      assertFalse(JdbcUrls.hasCredentials(url), url);
      assertEquals(url, JdbcUrls.mask(url));
      assertEquals("postgres:" + url, StoreSpec.postgres(url, null).toString());
    }
  }

  @Test
  void aConnectionErrorPrintsTheUrlMasked() {
    String sentinel = sentinel();
    // Bypasses StoreSpec's refusal, as a URL from elsewhere (cluster state, a test) would; port 1
    // refuses the connection at once.
    var store = new PostgresStore("jdbc:postgresql://127.0.0.1:1/x?user=postgres&password=" + sentinel, null);
    Exception e = assertThrows(Exception.class, () -> store.createTableIfMissing("t",
        org.apache.avro.SchemaBuilder.record("r").fields().requiredLong("id").endRecord(), false));
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertTrue(e.getMessage().contains("cannot connect to"), e.getMessage());
    assertTrue(e.getMessage().contains("password=***"), e.getMessage());
    assertFalse(e.getMessage().contains(sentinel), e.getMessage());
  }

  private static String sentinel() {
    return "sl-sentinel-" + UUID.randomUUID();
  }

  /**
   * Runs a short real ingestion in a child JVM into a fresh PostgreSQL schema, then scans its
   * output and run directory for the sentinel.
   *
   * @param envPassword STREAMLAB_PG_PASSWORD for the child (null: unset, and PGPASSWORD unset too)
   */
  private void assertNoLeak(String name, String sentinel, List<String> extra, String envPassword, Path passwordFile)
      throws Exception {
    String url = TestPostgres.freshSchemaUrl("sl_secrets"); // skips where PostgreSQL cannot be had
    Path runDir = dir.resolve(name);
    try {
      List<String> args = new ArrayList<>(List.of("run", "--store=postgres", "--jdbcUrl=" + url, "--duration=4s",
          "--warmup=0s", "--ratePerSec=500", "--parallelism=1", "--progressInterval=2s", "--runDir=" + runDir));
      args.addAll(extra);
      Path outputFile = dir.resolve(name + ".out"); // outside the run directory, scanned on its own
      Process p = JavaProcess.builder("io.streamlab.cli.Main").jvmOptions(List.of("-Xmx1g")).args(args)
          .environment("STREAMLAB_PG_PASSWORD", envPassword).environment("PGPASSWORD", null).startLoggingTo(outputFile);
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        JavaProcess.stop(p, 5_000);
        throw new AssertionError("the run did not end in 3 minutes: " + Files.readString(outputFile));
      }
      String output = Files.readString(outputFile);
      System.out.print(output);
      assertEquals(0, p.exitValue(), "the run succeeded: " + output);
      // lost=0 alone would also hold for a run that sent nothing: the rows must be there.
      java.util.regex.Matcher counts = java.util.regex.Pattern.compile(" generated=(\\d+) ingested=(\\d+) ").matcher(output);
      assertTrue(counts.find() && Long.parseLong(counts.group(1)) > 0 && counts.group(1).equals(counts.group(2))
          && output.contains(" lost=0 "), "a real ingestion wrote its rows: " + output);
      assertFalse(output.contains(sentinel), "the process output holds the password");
      List<Path> scanned = new ArrayList<>();
      try (Stream<Path> files = Files.walk(runDir)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          if (f.equals(passwordFile)) continue;
          assertFalse(contains(f, sentinel), "the password leaked into " + f);
          scanned.add(runDir.relativize(f));
        }
      }
      for (String expected : List.of("results.json", "report.html", "timeseries.csv", "summary.txt", "ingest.log")) {
        assertTrue(scanned.contains(Path.of(expected)), expected + " was scanned: " + scanned);
      }
    } finally {
      TestPostgres.drop(url);
    }
  }

  private static boolean contains(Path file, String sentinel) throws IOException {
    byte[] needle = sentinel.getBytes(StandardCharsets.UTF_8);
    byte[] hay = Files.readAllBytes(file);
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int k = 0; k < needle.length; k++) if (hay[i + k] != needle[k]) continue outer;
      return true;
    }
    return false;
  }
}
