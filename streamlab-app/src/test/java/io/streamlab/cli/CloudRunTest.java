package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.cloud.gcp.CallLog;
import io.streamlab.cloud.gcp.FakeGcp;
import io.streamlab.cloud.gcp.GcpServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --cloud=gcp} and {@code study --cloud=gcp} through the command line, against FAKE
 * Pub/Sub, BigQuery and Dataflow (io.streamlab.cloud.gcp's FakePubsub, FakeBigQuery on DuckDB,
 * FakeDataflow): the plan and the --yes refusal, the create / run / verify / clean-up sequence,
 * a loss caught by the verification, and the clean-up after a failure. Never Google's services.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CloudRunTest {
  @TempDir Path dir;

  private record Outcome(int code, String out, String err) {}

  private static final String[] CLOUD = {"--cloud=gcp", "--project=my-project", "--region=us-central1"};

  /** Runs streamlab with {@code services} behind --cloud=gcp; stdout captured (run prints there). */
  private static Outcome execute(GcpServices.Factory services, String... args) {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err, true));
    ((RunCommand) cl.getSubcommands().get("run").getCommand()).cloud.services = services;
    PrintStream console = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      int code = cl.execute(args);
      return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString());
    } finally {
      System.setOut(console);
      System.out.print(out.toString(StandardCharsets.UTF_8)); // the run's output in the test report
    }
  }

  private static String[] args(String... more) {
    List<String> a = new ArrayList<>(List.of(more));
    a.addAll(1, List.of(CLOUD));
    return a.toArray(String[]::new);
  }

  @Test
  void thePlanIsPrintedAndNothingHappensWithoutYes() {
    List<String> opened = new ArrayList<>();
    Outcome o = execute(plan -> {
      opened.add(plan.runId());
      throw new AssertionError("services opened without --yes");
    }, args("run", "--runDir=" + dir.resolve("r")));
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("add --yes"), o.err);
    assertTrue(opened.isEmpty(), "no service opened");
    for (String part : List.of("Pub/Sub topic         projects/my-project/topics/sl-",
        "Pub/Sub subscription  projects/my-project/subscriptions/sl-", "BigQuery dataset      my-project:sl_",
        "Dataflow job          sl-", "at most 2 x n2-standard-2", "removed at the end")) {
      assertTrue(o.out.contains(part), part + " in:\n" + o.out);
    }
    // defaults: warm-up 10 s + window 30 s + 2 drains of at most 60 s + 6 min of job start and stop = 520 s, x 2 workers
    assertTrue(o.out.contains("estimate: at most 0.29 worker-hours (2 workers x 0.14 h"), o.out);
    assertFalse(Files.exists(dir.resolve("r")), "nothing written either");
  }

  @Test
  void theStudyPrintsItsWholeEstimateAndNeedsYes() {
    Outcome o = execute(plan -> {
      throw new AssertionError("services opened without --yes");
    }, args("study", "--no-search", "--out=" + dir.resolve("s")));
    assertEquals(2, o.code, o.err);
    assertTrue(o.out.contains("study --cloud=gcp: 7 runs one after another"), o.out);
    assertTrue(o.out.contains("worker-hours in all"), o.out);
    assertTrue(o.err.contains("add --yes"), o.err);
    assertFalse(Files.exists(dir.resolve("s")));
  }

  private Outcome runWithFakes(FakeGcp fakes, Consumer<FakeGcp> setUp, String... more) {
    setUp.accept(fakes);
    List<String> a = new ArrayList<>(List.of("run", "--yes", "--warmup=0s", "--duration=3s", "--ratePerSec=300",
        "--drainTimeout=20s", "--progressInterval=2s", "--runDir=" + dir.resolve("run")));
    a.addAll(List.of(more));
    return execute(plan -> fakes.services(), args(a.toArray(String[]::new)));
  }

  /** Scenario 4 (exactly-once, a 10 s trigger, the study's Storage Write API run): its flags reach the job. */
  @Test
  void aRunCreatesVerifiesReportsAndRemovesWhatItMade() throws Exception {
    FakeGcp fakes = new FakeGcp();
    Outcome o = runWithFakes(fakes, f -> {}, "4-storage-write-api");
    assertEquals(0, o.code, o.out + o.err);
    assertTrue(o.out.contains("verdict              OK (exactly-once)"), o.out);
    assertTrue(o.out.contains("lost 0"), o.out);
    assertTrue(Files.exists(dir.resolve("run/4-storage-write-api/results.json")), "the same result files as a local run");
    assertTrue(Files.exists(dir.resolve("run/4-storage-write-api/report.html")));
    List<String> calls = FakeGcp.verbs(fakes.log());
    assertEquals(List.of("pubsub.createTopic", "pubsub.createSubscription", "bigquery.createDataset",
        "bigquery.createTable", "bigquery.createTable", "dataflow.submit", "dataflow.cancel",
        "bigquery.deleteDataset", "pubsub.deleteSubscription", "pubsub.deleteTopic"), calls);
    List<String> job = fakes.dataflow().lastArgs();
    assertEquals("ingest", job.get(0));
    for (String flag : List.of("--source=pubsub", "--store=bigquery", "--runner=DataflowRunner", "--project=my-project",
        "--region=us-central1", "--maxNumWorkers=2", "--writeMethod=STORAGE_WRITE_API", "--triggeringFrequencySec=10.0")) {
      assertTrue(job.contains(flag), flag + " in " + job);
    }
    assertTrue(job.stream().anyMatch(a -> a.startsWith("--subscription=projects/my-project/subscriptions/sl-")), job.toString());
    assertTrue(job.stream().anyMatch(a -> a.matches("--outputTable=my-project:sl_.*\\.events")), job.toString());
    assertTrue(job.stream().noneMatch(a -> a.startsWith("--bootstrapServers") || a.equals("--runner=FlinkRunner")),
        job.toString());
    assertTrue(fakes.log().queries().stream().anyMatch(q -> q.contains("`my-project.sl_")),
        "the verification queried the BigQuery table by its path");
    assertEquals(0, fakes.resourcesLeft(), "everything made was removed");
    assertTheJobTranslates(job);
  }

  /**
   * The flags the run submitted are a Dataflow job: the same 'streamlab ingest' with --dryRun,
   * translated by Beam's DataflowRunner offline (what a real submission would send, bar staging).
   */
  private void assertTheJobTranslates(List<String> submitted) throws Exception {
    Path file = dir.resolve("job.json");
    List<String> a = new ArrayList<>(submitted);
    // one small file to stage instead of the test classpath: hashing hundreds of jars is not under test
    a.addAll(List.of("--dryRun=" + file, "--beamArg=--filesToStage=" + System.getProperty("java.home") + "/release"));
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err, true));
    assertEquals(0, cl.execute(a.toArray(String[]::new)), err.toString());
    com.fasterxml.jackson.databind.JsonNode job = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(Files.readString(file));
    com.fasterxml.jackson.databind.JsonNode options = job.get("environment").get("sdkPipelineOptions").get("options");
    assertEquals("JOB_TYPE_STREAMING", job.get("type").asText());
    assertTrue(job.get("name").asText().matches("sl-.*-ingest"), job.get("name").asText());
    assertEquals("my-project", options.get("project").asText());
    assertEquals("us-central1", options.get("region").asText());
    assertEquals(2, options.get("maxNumWorkers").asInt());
    assertEquals("n2-standard-2", options.get("workerMachineType").asText());
    assertTrue(options.get("enableStreamingEngine").asBoolean());
    String steps = job.get("steps").toString();
    assertTrue(steps.contains("/subscriptions/my-project/sl-"), "the job reads the run's subscription");
    assertTrue(steps.contains("WriteDeadLettersToBigQuery"), "and writes BigQuery");
    assertEquals("STORAGE_WRITE_API", options.get("writeMethod").asText());
  }

  @Test
  void lostRowsFailTheRunAndItStillCleansUp() throws Exception {
    FakeGcp fakes = new FakeGcp();
    Outcome o = runWithFakes(fakes, f -> f.dataflow().loseEvery(25));
    assertEquals(io.streamlab.bench.Verdict.LOST, o.code, o.out + o.err);
    assertTrue(o.out.contains("FAIL"), o.out);
    assertEquals(0, fakes.resourcesLeft());
  }

  @Test
  void keepLeavesTheResources() throws Exception {
    FakeGcp fakes = new FakeGcp();
    Outcome o = runWithFakes(fakes, f -> {}, "--keep");
    assertEquals(0, o.code, o.out + o.err);
    assertTrue(o.out.contains("kept (--keep) BigQuery dataset"), o.out);
    assertEquals(3, fakes.resourcesLeft(), "topic, subscription and dataset kept");
    assertTrue(FakeGcp.verbs(fakes.log()).contains("dataflow.cancel"), "the job is cancelled all the same");
  }

  @Test
  void whatWasMadeIsRemovedWhenALaterStepFails() throws Exception {
    FakeGcp submitFails = new FakeGcp();
    Outcome o = runWithFakes(submitFails, f -> f.dataflow().failSubmit());
    assertEquals(2, o.code, o.out + o.err);
    assertEquals(List.of("pubsub.createTopic", "pubsub.createSubscription", "bigquery.createDataset",
        "bigquery.createTable", "bigquery.createTable", "dataflow.submit",
        "bigquery.deleteDataset", "pubsub.deleteSubscription", "pubsub.deleteTopic"), FakeGcp.verbs(submitFails.log()));
    assertEquals(0, submitFails.resourcesLeft());

    FakeGcp datasetFails = new FakeGcp();
    o = runWithFakes(datasetFails, f -> f.bigQuery().failCreateDataset());
    assertEquals(2, o.code, o.out + o.err);
    assertEquals(List.of("pubsub.createTopic", "pubsub.createSubscription", "bigquery.createDataset",
        "pubsub.deleteSubscription", "pubsub.deleteTopic"), FakeGcp.verbs(datasetFails.log()));
    assertEquals(0, datasetFails.resourcesLeft());
  }
}
