package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.pipeline.write.WriteMethod;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The runner's settings under Beam's own option names (BeamFlags.RUNNER / DATAFLOW): what 'run'
 * gives its ingestion child, what the child's pipeline then has as Beam options, a --beamArg
 * overriding a flag, a misspelled name refused before anything starts, and --help listing each.
 */
class RunnerFlagsTest {
  @TempDir Path dir;

  private static <T> T parse(T command, String... args) {
    new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
    return command;
  }

  /** The child 'run' would start, parsed as the child parses it, and its pipeline's options. */
  private static PipelineOptions childOptions(String... runArgs) {
    List<String> child = new ArrayList<>(parse(new RunCommand(), runArgs).ingestArgs());
    child.add("--bootstrapServers=127.0.0.1:1"); // LabRun adds the source and store
    return parse(new IngestCommand(), child.toArray(String[]::new)).pipelineOptions();
  }

  @Test
  void theChildsPipelineHasTheRunnersSettingsAsBeamOptions() {
    PipelineOptions o = childOptions("--parallelism=3", "--maxBundleSize=777", "--maxBundleTimeMills=20",
        "--appendBatchSize=123", "--beamArg=--checkpointingInterval=5000", "--writeMethod=storage_write_api");
    FlinkPipelineOptions flink = o.as(FlinkPipelineOptions.class);
    assertEquals("FlinkRunner", o.getRunner().getSimpleName());
    assertEquals("[local]", flink.getFlinkMaster());
    assertEquals(3, flink.getParallelism());
    assertEquals(777L, flink.getMaxBundleSize());
    assertEquals(20L, flink.getMaxBundleTimeMills());
    assertEquals(5000L, flink.getCheckpointingInterval(), "a --beamArg reaches the child's pipeline");
    assertEquals(123, o.as(RunnerOptions.class).getAppendBatchSize());
    assertEquals(WriteMethod.STORAGE_WRITE_API, o.as(WriteOptions.class).getWriteMethod());
  }

  @Test
  void streamlabsDefaultsReachTheChildNotBeams() {
    FlinkPipelineOptions flink = childOptions().as(FlinkPipelineOptions.class);
    assertEquals(25L, flink.getMaxBundleTimeMills(), "Beam's streaming default is 1000");
    assertEquals(50_000L, flink.getMaxBundleSize(), "Beam's streaming default is 1000");
    assertEquals(Runtime.getRuntime().availableProcessors(), flink.getParallelism(), "one per core");
  }

  @Test
  void aBeamArgWinsOverWhatStreamlabSetsForTheRunner() {
    // streamlab sets --fasterCopy=true; Beam alone refuses a name given twice ("expected one element")
    assertFalse(childOptions("--beamArg=--fasterCopy=false").as(FlinkPipelineOptions.class).getFasterCopy());
    assertTrue(childOptions().as(FlinkPipelineOptions.class).getFasterCopy());
  }

  private record Outcome(int code, String err) {}

  private static Outcome execute(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    return new Outcome(cl.execute(args), err.toString());
  }

  @Test
  void aMisspelledBeamOptionIsRefusedBeforeTheRunStarts() {
    Path runDir = dir.resolve("run");
    Outcome o = execute("run", "--beamArg=--paralelism=2", "--runDir=" + runDir);
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("missing a property named 'paralelism'. Did you mean 'parallelism'?"), o.err);
    assertFalse(Files.exists(runDir), "nothing started");
    o = execute("ingest", "--bootstrapServers=127.0.0.1:1", "--beamArg=--maxBundleTimeMillis=20");
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("missing a property named 'maxBundleTimeMillis'"), o.err);
  }

  @Test
  void aMisspelledFlagIsRefusedWithTheFlagItMeant() {
    Outcome o = execute("run", "--paralelism=2", "--runDir=" + dir.resolve("run"));
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("Unknown option: '--paralelism=2'"), o.err);
    assertTrue(o.err.contains("--parallelism"), "picocli suggests the flag: " + o.err);
    o = execute("ingest", "--bootstrapServers=127.0.0.1:1", "--maxBundleTimeMills=soon");
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("--maxBundleTimeMills"), o.err);
  }

  @Test
  void dataflowOptionsNeedDataflow() {
    Outcome o = execute("ingest", "--bootstrapServers=127.0.0.1:1", "--region=us-central1");
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("--region=us-central1: Dataflow options need --runner=DataflowRunner"), o.err);
    o = execute("run", "--maxNumWorkers=3", "--runDir=" + dir.resolve("run"));
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("--maxNumWorkers=3: Dataflow options need --cloud=gcp"), o.err);
  }

  @Test
  void helpListsBeamsOptionsWithBeamsDescriptionAndStreamlabsDefault() {
    for (String command : List.of("ingest", "run")) {
      StringWriter out = new StringWriter();
      CommandLine cl = Main.commandLine();
      cl.setOut(new PrintWriter(out));
      assertEquals(0, cl.execute(command, "--help"));
      String help = out.toString().replaceAll("\\s+", " ");
      for (BeamFlags.BeamOption o : Stream.concat(BeamFlags.RUNNER.stream(), BeamFlags.DATAFLOW.stream()).toList()) {
        String flag = "--" + o.property();
        assertTrue(help.contains(flag), command + " --help lacks " + flag);
        String beams = o.flag().description()[0];
        assertTrue(help.contains(beams.substring(0, 40).replaceAll("\\s+", " ")), command + ": " + flag + "'s description");
      }
      assertTrue(help.contains("(Beam's FlinkPipelineOptions.)"), help);
      int at = help.indexOf("--maxBundleTimeMills=<maxBundleTimeMills> ");
      String entry = help.substring(at, help.indexOf(" --", at + 1));
      assertTrue(entry.contains("The maximum time to wait before finalising a bundle"), entry);
      assertTrue(entry.endsWith("Default: 25."), entry);
      assertTrue(help.contains("--appendBatchSize=<appendBatchSize> Most rows in one table append. Default: 50000."), help);
      assertTrue(help.contains("--beamArg=--NAME=VALUE"), help);
    }
  }

  @Test
  void everyBeamOptionIsBeamsOwn() throws Exception {
    // Beam's description, not one of ours: the flag is the option Beam documents
    for (BeamFlags.BeamOption o : Stream.concat(BeamFlags.RUNNER.stream(), BeamFlags.DATAFLOW.stream()).toList()) {
      String bare = Character.toUpperCase(o.property().charAt(0)) + o.property().substring(1);
      var getter = Stream.of(o.iface().getMethods())
          .filter(m -> m.getName().equals("get" + bare) || m.getName().equals("is" + bare)).findFirst().orElseThrow();
      assertFalse(getter.getDeclaringClass().getName().startsWith("io.streamlab"), o.property());
      assertTrue(o.flag().description()[0].startsWith(getter.getAnnotation(Description.class).value().strip()
          .replace("%", "%%")), o.property());
    }
  }
}
