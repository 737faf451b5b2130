package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.throttle.ThrottleSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Ingestion options defined once as Beam PipelineOptions interfaces (BeamFlags): the flags picocli
 * parses, their defaults, the child's flags written from the options, Beam reading those, and
 * --help listing each flag with its description.
 */
class BeamFlagsTest {
  private static IngestCommand ingest(String... args) {
    IngestCommand c = new IngestCommand();
    new CommandLine(c).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
    return c;
  }

  @Test
  void flagsGivenAreTheOptionsValues() {
    IngestCommand c = ingest("--bootstrapServers=h:1", "--throttling=adaptive", "--pool=4", "--fakeQuota",
        "--quotaRowsPerSec=7", "--backoffMax=2s", "--adaptiveIncreasePercent=2.5");
    ThrottleOptions o = BeamFlags.options(c.spec, ThrottleOptions.class);
    assertEquals("adaptive", o.getThrottling());
    assertEquals("4", o.getPool());
    assertTrue(o.getFakeQuota());
    assertEquals(7, o.getQuotaRowsPerSec());
    assertEquals(2.5, o.getAdaptiveIncreasePercent());
    ThrottleSpec spec = ThrottleOptions.toSpec(o);
    assertEquals(2_000, spec.tuning().backoffMaxMillis());
    assertEquals(7, spec.quota().rowsPerSec());
  }

  @Test
  void flagsLeftOutAreTheDefaultsOfTheInterface() {
    ThrottleOptions o = BeamFlags.options(ingest("--bootstrapServers=h:1").spec, ThrottleOptions.class);
    assertEquals(ThrottleSpec.DEFAULT_STRATEGY, o.getThrottling());
    assertEquals("unbounded", o.getPool());
    assertFalse(o.getFakeQuota());
    assertEquals(42, o.getQuotaSeed());
    assertEquals(50, o.getMaxRetries());
    assertEquals("100ms", o.getBackoffInitial());
    assertNull(ThrottleOptions.toSpec(o).quota(), "no fake quota unless --fakeQuota");
  }

  @Test
  void theChildsFlagsAreWrittenFromTheOptionsAndReadBackTheSame() {
    ThrottleOptions parent = BeamFlags.options(ingest("--bootstrapServers=h:1", "--throttling=retry-any",
        "--fakeQuota", "--quotaSeed=7", "--adaptiveInterval=3s").spec, ThrottleOptions.class);
    List<String> args = BeamFlags.asArgs(parent, ThrottleOptions.class);
    assertTrue(args.contains("--fakeQuota"), args.toString());
    assertTrue(args.contains("--quotaSeed=7"), args.toString());
    // the child parses them with picocli, Beam with PipelineOptionsFactory: both see the parent's values
    String[] argv = args.toArray(String[]::new);
    ThrottleOptions child = BeamFlags.options(ingest(withBroker(argv)).spec, ThrottleOptions.class);
    ThrottleOptions beam = PipelineOptionsFactory.fromArgs(argv).as(ThrottleOptions.class);
    for (ThrottleOptions o : List.of(child, beam)) {
      assertEquals(ThrottleOptions.toSpec(parent), ThrottleOptions.toSpec(o));
      assertEquals(args, BeamFlags.asArgs(o, ThrottleOptions.class));
    }
  }

  /** A switch on by default is turned off with --name=false, and the child is told so. */
  @Test
  void aSwitchOnByDefaultIsTurnedOffAndTheChildIsToldSo() {
    assertTrue(WriteOptions.toSettings(BeamFlags.options(ingest("--bootstrapServers=h:1").spec,
        WriteOptions.class)).holdWhileBehind(), "on by default");
    WriteOptions off = BeamFlags.options(ingest("--bootstrapServers=h:1", "--holdWhileBehind=false").spec, WriteOptions.class);
    assertFalse(WriteOptions.toSettings(off).holdWhileBehind());
    List<String> args = BeamFlags.asArgs(off, WriteOptions.class);
    assertTrue(args.contains("--holdWhileBehind=false"), args.toString());
    String[] argv = args.toArray(String[]::new);
    assertFalse(BeamFlags.options(ingest(withBroker(argv)).spec, WriteOptions.class).getHoldWhileBehind(), "picocli in the child");
    assertFalse(PipelineOptionsFactory.fromArgs(argv).as(WriteOptions.class).getHoldWhileBehind(), "Beam in the child");
    assertTrue(BeamFlags.options(ingest("--bootstrapServers=h:1", "--holdWhileBehind").spec, WriteOptions.class)
        .getHoldWhileBehind(), "given bare: on");
  }

  /**
   * --checkpointIntervalMs not given leaves the choice to the write stage (longer where DuckDB's
   * writers hold their appends), and the child is not told a value; given, it is passed on.
   */
  @Test
  void aCheckpointIntervalNotGivenIsLeftToTheWriteStage() {
    WriteOptions unset = BeamFlags.options(ingest("--bootstrapServers=h:1").spec, WriteOptions.class);
    assertEquals(WriteSettings.CHECKPOINT_INTERVAL_NOT_GIVEN, WriteOptions.toSettings(unset).checkpointIntervalMs());
    assertTrue(BeamFlags.asArgs(unset, WriteOptions.class).stream().noneMatch(a -> a.startsWith("--checkpointIntervalMs")));
    WriteOptions given = BeamFlags.options(ingest("--bootstrapServers=h:1", "--checkpointIntervalMs=0").spec, WriteOptions.class);
    assertEquals(0, WriteOptions.toSettings(given).checkpointIntervalMs(), "0: no checkpoints");
    assertTrue(BeamFlags.asArgs(given, WriteOptions.class).contains("--checkpointIntervalMs=0"));
    WriteOptions negative = BeamFlags.options(ingest("--bootstrapServers=h:1", "--checkpointIntervalMs=-1").spec,
        WriteOptions.class);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> WriteOptions.toSettings(negative));
    assertTrue(e.getMessage().contains("--checkpointIntervalMs"), e.getMessage());
  }

  @Test
  void helpListsEveryFlagWithItsDescriptionAndDefault() {
    StringWriter out = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    assertEquals(0, cl.execute("ingest", "--help"));
    String help = out.toString().replaceAll("\\s+", " ");
    for (var getter : BeamFlags.getters(ThrottleOptions.class)) {
      String desc = getter.getAnnotation(org.apache.beam.sdk.options.Description.class).value();
      assertTrue(help.contains(desc.substring(0, Math.min(40, desc.length()))), "help lacks " + getter.getName() + ": " + help);
    }
    assertTrue(help.contains("--quotaSeed=<quotaSeed> Seed of the transient failures. Default: 42."), help);
    assertTrue(help.contains("jittered 50-100 %"), "a percent sign survives picocli's formatting: " + help);
  }

  @Test
  void everyCommandThatHadTheOptionsHasTheirFlags() {
    CommandLine cl = Main.commandLine();
    for (String flag : List.of("--backoffInitial", "--quotaMaxConcurrentRequests", "--schema", "--transportFormat")) {
      assertTrue(cl.getSubcommands().get("sinkbench").getCommandSpec().findOption(flag) != null, flag);
    }
    GenerateCommand generate = new GenerateCommand();
    new CommandLine(generate).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--transportFormat=json");
    assertEquals(io.streamlab.formats.TransportFormat.JSON,
        BeamFlags.options(generate.spec, SchemaOptions.class).getTransportFormat());
    for (var getter : BeamFlags.getters(ThrottleOptions.class)) {
      String flag = "--" + Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
      assertTrue(cl.getSubcommands().get("run").getCommandSpec().findOption(flag) != null, "run lacks " + flag);
    }
  }

  @Test
  void aBadValueIsOneLineAndExitTwo() {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    assertEquals(2, cl.execute("ingest", "--bootstrapServers=127.0.0.1:1", "--maxRetries=many"));
    assertTrue(err.toString().contains("--maxRetries"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(2, cl.execute("ingest", "--bootstrapServers=127.0.0.1:1", "--backoffMax=soon"));
    assertTrue(err.toString().contains("--backoffMax: 'soon' is not a duration"), err.toString());
  }

  @Test
  void writeOptionsAreCaseInsensitiveAndShareBigQueryIOsOwnOptions() {
    WriteOptions o = BeamFlags.options(ingest("--bootstrapServers=h:1", "--writeMethod=storage_write_api",
        "--numStreamingKeys=512", "--autoSharding", "--warehouseModel=bigquery", "--roundTripP50=80ms").spec,
        WriteOptions.class);
    assertEquals(WriteMethod.STORAGE_WRITE_API, o.getWriteMethod());
    WriteSettings w = WriteOptions.toSettings(o);
    assertEquals(512, w.numStreamingKeys());
    assertTrue(w.autoSharding());
    assertEquals(80.0, w.warehouseModel().p50Millis());
    assertEquals(FormatToStore.AVRO_GENERIC_RECORD, w.formatToStore(), "the default");
    // the names Beam's BigQueryOptions has too are one option: BigQueryIO reads the flag's value
    String[] argv = BeamFlags.asArgs(o, WriteOptions.class).toArray(String[]::new);
    PipelineOptionsFactory.register(WriteOptions.class);
    assertEquals(512, PipelineOptionsFactory.fromArgs(argv).as(BigQueryOptions.class).getNumStreamingKeys());
  }

  @Test
  void aScenarioKeyIsAFlagOfTheInterface() {
    CommandLine run = new CommandLine(new RunCommand());
    io.streamlab.scenario.Scenario s = io.streamlab.scenario.ScenarioCatalog.resolve("4-storage-write-api");
    List<String> args = ScenarioArgs.of(s, run.getCommandSpec());
    assertTrue(args.contains("--writeMethod=STORAGE_WRITE_API"), args.toString());
    run.parseArgs(args.toArray(String[]::new));
    assertEquals(WriteMethod.STORAGE_WRITE_API, run.getCommandSpec().findOption("--writeMethod").getValue());
  }

  private static String[] withBroker(String[] args) {
    String[] all = new String[args.length + 1];
    all[0] = "--bootstrapServers=h:1";
    System.arraycopy(args, 0, all, 1, args.length);
    return all;
  }
}
