package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.Commands;
import io.streamlab.testing.Commands.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/ab-drains}: the drains it would run, in the order and with the builds and arguments
 * given, and its table of a folder of drain results (each variant's mean against the first's; a
 * drain that lost or duplicated a row fails it). The drains themselves are bench-vs-peer's, which
 * {@code BenchSmokeTest} runs.
 */
class AbDrainsScriptTest {
  private Path script;

  @BeforeEach
  void needsPython() {
    script = Commands.pythonScript("ab-drains");
  }

  @Test
  void runsEachLetterOfTheOrderWithItsBuildAndArguments(@TempDir Path dir) throws Exception {
    Path other = Files.createDirectories(dir.resolve("clone"));
    Result r = runs(dir, "--dry-run", "--out=" + dir.resolve("ab"), "--order=A B B A",
        "--modes=STORAGE_API_AT_LEAST_ONCE,STORAGE_WRITE_API@0", "--events=1000", "--dir=B:" + other,
        "--arg=B:--maxBundleTimeMills=25", "--arg=B:--beamArg=--objectReuse=true");
    assertEquals(0, r.exit(), r.out());
    List<String> lines = r.out().lines().toList();
    assertEquals(List.of("1-A-STORAGE_API_AT_LEAST_ONCE", "1-A-STORAGE_WRITE_API", "2-B-STORAGE_API_AT_LEAST_ONCE",
        "2-B-STORAGE_WRITE_API", "3-B-STORAGE_API_AT_LEAST_ONCE", "3-B-STORAGE_WRITE_API",
        "4-A-STORAGE_API_AT_LEAST_ONCE", "4-A-STORAGE_WRITE_API"), lines.stream().map(l -> l.split(":")[0]).toList());
    String a = lines.get(1);
    String b = lines.get(3);
    assertTrue(a.startsWith("1-A-STORAGE_WRITE_API: (cd " + script.getParent().getParent() + " && "), a);
    assertTrue(a.contains("--events=1000 --skipPeer --formats=STORE_ROW --variants=STORAGE_WRITE_API@0 "
        + "--stores=postgres --threads --out=" + dir.resolve("ab").resolve("1-A-STORAGE_WRITE_API.json")), a);
    assertTrue(!a.contains("maxBundleTimeMills"), a);
    assertTrue(b.startsWith("2-B-STORAGE_WRITE_API: (cd " + other + " && " + other.resolve("scripts/bench-vs-peer")), b);
    assertTrue(b.contains("--threads --arg=--maxBundleTimeMills=25 --arg=--beamArg=--objectReuse=true --out="), b);

    assertEquals(2, runs(dir, "--out=x", "--order=A A").exit(), "one variant is no A/B");
    assertEquals(2, runs(dir, "--out=x", "--arg=C:--x=1").exit(), "C is not in the order");
    assertEquals(2, runs(dir, "--order=A B").exit(), "--out is required");
  }

  @Test
  void givesEachVariantsDrainsItsEnvironment(@TempDir Path dir) throws Exception {
    Result r = runs(dir, "--dry-run", "--out=" + dir.resolve("ab"), "--order=A B", "--modes=STORAGE_API_AT_LEAST_ONCE",
        "--env=B:STREAMLAB_INGEST_JAVA_OPTS=-Dpekko.scheduler.tick-duration=100ms -Xmn1g");
    assertEquals(0, r.exit(), r.out());
    List<String> lines = r.out().lines().toList();
    assertTrue(!lines.get(0).contains("STREAMLAB_INGEST_JAVA_OPTS"), lines.get(0));
    assertTrue(lines.get(1).contains(" && STREAMLAB_INGEST_JAVA_OPTS='-Dpekko.scheduler.tick-duration=100ms -Xmn1g' "
        + script.getParent().resolve("bench-vs-peer")), lines.get(1));

    assertEquals(2, runs(dir, "--out=x", "--env=B:no-assignment").exit(), "NAME=VALUE is required");
    assertEquals(2, runs(dir, "--out=x", "--env=C:X=1").exit(), "C is not in the order");
  }

  @Test
  void summarisesEachVariantsDrainsAgainstTheFirstVariant(@TempDir Path dir) throws Exception {
    drain(dir, "1-A-STORAGE_API_AT_LEAST_ONCE.json", 80_000, 90.0, 5000, 0);
    drain(dir, "2-B-STORAGE_API_AT_LEAST_ONCE.json", 90_000, 100.0, 4000, 0);
    drain(dir, "3-B-STORAGE_API_AT_LEAST_ONCE.json", 96_000, 110.0, 4200, 0);
    drain(dir, "4-A-STORAGE_API_AT_LEAST_ONCE.json", 70_000, 80.0, 5200, 0);
    Files.writeString(dir.resolve("notes.json"), "{}"); // not a drain's name: left alone

    Result r = runs(dir, "--summary", dir.toString());
    assertEquals(0, r.exit(), r.out());
    assertEquals(List.of(
        "| variant | mode | events per CPU-second, each drain | mean | vs A | MB/s per core, mean | heap bytes per event, mean |",
        "|---|---|---|---|---|---|---|",
        "| A | STORAGE_API_AT_LEAST_ONCE | 80.0 k / 70.0 k | 75.0 k | 1.000 | 85.0 | 5,100 |",
        "| B | STORAGE_API_AT_LEAST_ONCE | 90.0 k / 96.0 k | 93.0 k | 1.240 | 105.0 | 4,100 |"), r.out().lines().toList());

    drain(dir, "5-B-STORAGE_API_AT_LEAST_ONCE.json", 99_000, 100.0, 4000, 3);
    Result lost = runs(dir, "--summary", dir.toString());
    assertEquals(1, lost.exit(), lost.out());
    assertTrue(lost.out().contains("ab-drains: 5-B-STORAGE_API_AT_LEAST_ONCE.json: lost 3, duplicated 0"), lost.out());

    assertEquals(1, runs(dir, "--summary", dir.resolve("empty").toString()).exit(), "no drains: nothing to compare");
  }

  /** A drain's JSON as bench-vs-peer writes it, with the figures the summary reads. */
  private static void drain(Path dir, String name, double perCpuSecond, double mbPerCore, double bytesPerEvent, long lost)
      throws Exception {
    Files.writeString(dir.resolve(name), """
        {"streamlab": [{"store": "postgres", "writeMethod": "STORAGE_API_AT_LEAST_ONCE", "formatToStore": "STORE_ROW",
          "eventsPerSec": 40000.0, "eventsPerCpuSecond": %s, "megabytesPerSecPerCore": %s,
          "allocatedBytesPerEvent": %s, "lost": %d, "duplicated": 0}]}
        """.formatted(perCpuSecond, mbPerCore, bytesPerEvent, lost));
  }

  private Result runs(Path dir, String... args) throws Exception {
    return Commands.runPython(dir, script, args);
  }
}
