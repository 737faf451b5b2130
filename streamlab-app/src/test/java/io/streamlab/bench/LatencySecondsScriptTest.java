package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.testing.Commands;
import io.streamlab.testing.Commands.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/latency-seconds} on a run directory and GC log written here: only the window's
 * seconds, each with the collection pauses and the safepoints logged within it (a second ends at
 * its {@code t}), from the log given or the run's own ingest-gc logs.
 */
class LatencySecondsScriptTest {
  @Test
  void listsTheWindowsSecondsWithThePausesInEach(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("latency-seconds");
    Files.writeString(dir.resolve("results.json"), """
        {"run": {"startedAt": "2026-11-27T14:00:00.123456789Z"},
         "configuration": {"writeMethod": "STORAGE_API_AT_LEAST_ONCE"},
         "series": [
          {"t": 10.0, "phase": "warmup", "p50Millis": 900.0, "p99Millis": 990.0, "ingestedPerSec": 10.0, "backlog": 9},
          {"t": 11.0, "phase": "measure", "p50Millis": 80.4, "p99Millis": 300.6, "ingestedPerSec": 1000.2, "backlog": 5},
          {"t": 12.0, "phase": "measure", "p50Millis": null, "p99Millis": null, "ingestedPerSec": 0.0, "backlog": 7}]}
        """);
    Files.writeString(dir.resolve("gc.log"), String.join("\n",
        "[2026-11-27T14:00:09.500+0000][9.0s] GC(1) Pause Young (Allocation Failure) 100M->10M(200M) 50.000ms",
        "[2026-11-27T14:00:10.200+0000][9.7s] GC(2) Pause Young (Allocation Failure) 100M->10M(200M) 20.400ms",
        "[2026-11-27T14:00:10.900+0000][10.4s] GC(3) Pause Full (Ergonomics) 100M->10M(200M) 30.300ms",
        "[2026-11-27T14:00:11.500+0000][11.0s] GC(4) Pause Young (Allocation Failure) 100M->10M(200M) 7.000ms",
        "[2026-11-27T14:00:10.950+0000][10.5s] Safepoint \"ParallelGCFailedAllocation\", Time since last: 1 ns, "
            + "Reaching safepoint: 100000 ns, Cleanup: 1000 ns, At safepoint: 30500000 ns, Total: 30600000 ns",
        "[2026-11-27T14:00:11.600+0000][11.1s] Safepoint \"Cleanup\", Time since last: 1 ns, Reaching safepoint: "
            + "11000000 ns, Cleanup: 1000 ns, At safepoint: 1000000 ns, Total: 12001000 ns", ""));
    List<String> expected = List.of(
        "mode,utc,t_s,p50_ms,p99_ms,ingested_per_s,backlog,gc_pause_ms_in_second,safepoint_ms_in_second",
        "STORAGE_API_AT_LEAST_ONCE,14:00:11,11,80,301,1000,5,51,31",
        "STORAGE_API_AT_LEAST_ONCE,14:00:12,12,,,0,7,7,12");

    Result r = Commands.runPython(dir, script, "--gc=" + dir.resolve("gc.log"), dir.toString());
    assertEquals(0, r.exit(), r.out());
    assertEquals(expected, r.out().lines().toList());

    // without a log: the pause columns stay empty
    Result labelled = Commands.runPython(dir, script, "--label=al", "--no-header", dir.toString());
    assertEquals(0, labelled.exit(), labelled.out());
    assertEquals(List.of("al,14:00:11,11,80,301,1000,5,,", "al,14:00:12,12,,,0,7,,"), labelled.out().lines().toList());

    // a run writes ingest-gc-PID.log, one per ingestion process: read without --gc, all of them
    List<String> lines = Files.readAllLines(dir.resolve("gc.log"));
    Files.write(dir.resolve("ingest-gc-101.log"), lines.subList(0, 3));
    Files.write(dir.resolve("ingest-gc-202.log"), lines.subList(3, lines.size()));
    Result own = Commands.runPython(dir, script, dir.toString());
    assertEquals(0, own.exit(), own.out());
    assertEquals(expected, own.out().lines().toList());

    Result noRun = Commands.runPython(dir, script, dir.resolve("nothing").toString());
    assertEquals(1, noRun.exit(), noRun.out());
  }

  /**
   * A sample's second ends at its own clock reading (epochMillis), not at the run's start plus its
   * {@code t}: t counts from the ingestion's start, which comes seconds after the run's (here 4 s),
   * so the pause logged right before the run's start plus t belongs to an earlier second.
   */
  @Test
  void aSecondEndsAtItsSamplesOwnClock(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("latency-seconds");
    Files.writeString(dir.resolve("results.json"), """
        {"run": {"startedAt": "2026-11-27T14:00:00.123456789Z"},
         "configuration": {"writeMethod": "STORAGE_API_AT_LEAST_ONCE"},
         "series": [
          {"t": 11.0, "epochMillis": 1795788015123, "phase": "measure", "p50Millis": 80.4, "p99Millis": 300.6,
           "ingestedPerSec": 1000.2, "backlog": 5}]}
        """);
    Files.writeString(dir.resolve("ingest-gc-7.log"), String.join("\n",
        "[2026-11-27T14:00:10.500+0000][6.5s] GC(1) Pause Young (Allocation Failure) 100M->10M(200M) 50.000ms",
        "[2026-11-27T14:00:14.500+0000][10.5s] GC(2) Pause Young (Allocation Failure) 100M->10M(200M) 7.000ms", ""));
    Result r = Commands.runPython(dir, script, "--no-header", dir.toString());
    assertEquals(0, r.exit(), r.out());
    assertEquals(List.of("STORAGE_API_AT_LEAST_ONCE,14:00:15,11,80,301,1000,5,7,"), r.out().lines().toList());
  }

  /**
   * --cpu adds each kind of process's CPU in the second (the probe's rows summed per kind, a label
   * with a comma kept whole), and leaves the cells empty for a second the probe has no row for: a
   * probe that had died must not read as idle processes.
   */
  @Test
  void cpuSumsEachKindOfProcessPerSecondAndLeavesSecondsWithoutAProbeRowEmpty(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("latency-seconds");
    Files.writeString(dir.resolve("results.json"), """
        {"run": {"startedAt": "2026-11-27T14:00:00.123456789Z"},
         "configuration": {"writeMethod": "STORAGE_API_AT_LEAST_ONCE"},
         "series": [
          {"t": 11.0, "epochMillis": 1795788011000, "phase": "measure", "p50Millis": 80.4, "p99Millis": 300.6,
           "ingestedPerSec": 1000.2, "backlog": 5},
          {"t": 12.0, "epochMillis": 1795788012000, "phase": "measure", "p50Millis": 70.0, "p99Millis": 200.0,
           "ingestedPerSec": 900.0, "backlog": 3}]}
        """);
    Files.writeString(dir.resolve("cpu.csv"), String.join("\n",
        "utc,pid,label,cpu_ms",
        "14:00:11,10,java:Main:ingest,300",
        "14:00:11,11,java:Kafka,250",
        "14:00:11,12,java:streamlab.jar:run,400",
        "14:00:11,20,postgres:backend,410",
        "14:00:11,21,postgres:checkpointer,20",
        "14:00:11,30,python3:a,b,15",
        "14:00:13,10,java:Main:ingest,999", ""));
    Result r = Commands.runPython(dir, script, "--cpu=" + dir.resolve("cpu.csv"), dir.toString());
    assertEquals(0, r.exit(), r.out());
    assertEquals(List.of(
        "mode,utc,t_s,p50_ms,p99_ms,ingested_per_s,backlog,gc_pause_ms_in_second,safepoint_ms_in_second,"
            + "cpu_ms_ingest,cpu_ms_broker,cpu_ms_run,cpu_ms_postgres,cpu_ms_other",
        "STORAGE_API_AT_LEAST_ONCE,14:00:11,11,80,301,1000,5,,,300,250,400,430,15",
        "STORAGE_API_AT_LEAST_ONCE,14:00:12,12,70,200,900,3,,,,,,,"), r.out().lines().toList());
  }

}
