package io.streamlab.pipeline.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.cli.Main;
import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code ingest --dryRun} of each of the study's seven runs, read from Pub/Sub and written to
 * BigQuery: the Dataflow job JSON Beam's own DataflowRunner translates, written with no
 * credentials and no network (the machine has none: any attempt would fail the run). Each job
 * must read the subscription with Dataflow's Pub/Sub read and write with that scenario's
 * BigQueryIO method, format, keys or streams and triggering frequency.
 */
class DataflowDryRunTest {
  private static final String SUBSCRIPTION = "projects/lab-project/subscriptions/events";
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"1-default", "2-512-keys", "3-auto-sharding", "4-storage-write-api", "5-beam-row", "6-avro",
      "7-at-least-once-avro"})
  void eachScenarioIsAPubsubReadAndItsBigQueryWrite(String name) throws Exception {
    Scenario scenario = ScenarioCatalog.resolve(name);
    Map<String, String> settings = new HashMap<>();
    for (Scenario.Setting s : scenario.settings()) settings.put(s.key(), s.value());
    Path file = dir.resolve(name + ".json");
    StringWriter err = new StringWriter();
    int code = dryRun(scenario, file, err);
    assertEquals(0, code, err.toString());
    JsonNode job = new ObjectMapper().readTree(Files.readString(file));
    JsonNode options = job.get("environment").get("sdkPipelineOptions").get("options");
    List<String> steps = new ArrayList<>();
    JsonNode pubsubRead = null;
    JsonNode toFormat = null;
    for (JsonNode step : job.get("steps")) {
      String userName = step.get("properties").get("user_name").get("value").asText();
      steps.add(userName);
      JsonNode format = step.get("properties").get("format");
      if (step.get("kind").asText().equals("ParallelRead") && format != null && format.get("value").asText().equals("pubsub")) {
        pubsubRead = step;
      }
      if (userName.equals("Write/ToBigQueryFormat")) toFormat = step; // inside the composite "Write"
    }

    assertEquals("JOB_TYPE_STREAMING", job.get("type").asText());
    assertEquals("lab-project", options.get("project").asText());
    assertEquals("europe-west1", options.get("region").asText());
    assertEquals(4, options.get("maxNumWorkers").asInt(), "Dataflow's own options pass through");
    assertTrue(options.get("enableStreamingEngine").asBoolean());
    // the ingestion's own options (Beam PipelineOptions, cli.BeamFlags) travel with the job too
    assertEquals(settings.get("writeMethod"), options.path("writeMethod").asText(), "writeMethod in " + options);
    assertEquals(settings.getOrDefault("formatToStore", "AVRO_GENERIC_RECORD"), options.path("formatToStore").asText());

    // Dataflow's native Pub/Sub read of the subscription (Dataflow names it /subscriptions/PROJECT/NAME)
    assertTrue(pubsubRead != null, "no Pub/Sub read step in " + steps);
    assertEquals("/subscriptions/lab-project/events", pubsubRead.get("properties").get("pubsub_subscription").get("value").asText());

    String method = settings.get("writeMethod");
    String write = "Write/Write" + method + "ToBigQuery/";
    switch (method) {
      case "STREAMING_INSERTS" -> {
        assertHasStep(steps, write + "StreamingInserts/StreamingWriteTables/");
        if (Boolean.parseBoolean(settings.getOrDefault("autoSharding", "false"))) {
          // --autoSharding reaches BigQueryIO: the dead letters' write (same settings) is auto-sharded
          // (MapToTableSpec, then GroupIntoBatches.WithShardedKey instead of fixed keys) ...
          assertHasStep(steps, "Write/WriteDeadLettersToBigQuery/StreamingInserts/StreamingWriteTables/MapToTableSpec");
          // ... but NOT the rows' write: BigQueryIO 2.70 keeps fixed keys when a deterministic
          // record id function (EventInsertId) is set. A known gap, asserted so a fix shows up here.
          assertHasStep(steps, write + "StreamingInserts/StreamingWriteTables/ShardTableWrites");
        } else {
          assertHasStep(steps, write + "StreamingInserts/StreamingWriteTables/ShardTableWrites");
          assertEquals(Integer.parseInt(settings.getOrDefault("numStreamingKeys", "50")), options.get("numStreamingKeys").asInt());
        }
      }
      case "STORAGE_WRITE_API" -> {
        assertHasStep(steps, write + "StorageApiLoads/StorageApiWriteSharded/");
        // --numStorageWriteApiStreams 0: streams chosen by the runner (sharded-key batches)
        assertHasStep(steps, write + "StorageApiLoads/GroupIntoBatches/GroupIntoBatches.WithShardedKey/");
        assertEquals(0, options.get("numStorageWriteApiStreams").asInt());
        assertEquals(Integer.parseInt(settings.get("triggeringFrequencySec")),
            options.get("storageWriteApiTriggeringFrequencySec").asInt());
      }
      case "STORAGE_API_AT_LEAST_ONCE" -> {
        assertHasStep(steps, write + "StorageApiLoads/StorageApiWriteInconsistent/");
        assertFalse(steps.stream().anyMatch(s -> s.startsWith(write) && s.contains("GroupIntoBatches")), "no shuffle");
        assertEquals(Boolean.parseBoolean(settings.getOrDefault("useConnectionPool", "false")),
            options.get("useStorageApiConnectionPool").asBoolean());
      }
      default -> throw new AssertionError("unknown method " + method);
    }
    // the element the write stage carries, by its coder
    JsonNode coder = toFormat.get("properties").get("output_info").get(0).get("encoding").get("component_encodings").get(0);
    String coderName = coder.get("@type").asText() + (coder.has("type") ? " " + coder.get("type").get("value").asText() : "");
    String expectedCoder = switch (settings.get("formatToStore")) {
      case "TABLE_ROW" -> "TableRowJsonCoder";
      case "BEAM_ROW" -> "RowCoder";
      case "AVRO_GENERIC_RECORD" -> "AvroGenericCoder";
      default -> throw new AssertionError(settings.get("formatToStore"));
    };
    assertTrue(coderName.contains(expectedCoder), "ToBigQueryFormat's output coder is " + coderName + ", not " + expectedCoder);
  }

  private static void assertHasStep(List<String> steps, String prefix) {
    assertTrue(steps.stream().anyMatch(s -> s.startsWith(prefix)), "no step " + prefix + "... in " + steps);
  }

  /** ingest --dryRun with the scenario's keys that ingest has, as 'run' would pass them. */
  private int dryRun(Scenario scenario, Path file, StringWriter err) {
    CommandLine cl = Main.commandLine();
    CommandLine ingest = cl.getSubcommands().get("ingest");
    List<String> args = new ArrayList<>(List.of("ingest", "--source=pubsub", "--subscription=" + SUBSCRIPTION,
        "--store=bigquery", "--outputTable=lab-project:streamlab.events", "--dryRun=" + file,
        "--project=lab-project", "--region=europe-west1", "--tempLocation=gs://lab-temp/streamlab",
        "--enableStreamingEngine", "--maxNumWorkers=4",
        // one small file to stage instead of the test classpath: hashing hundreds of jars is not under test
        "--beamArg=--filesToStage=" + System.getProperty("java.home") + "/release"));
    for (Scenario.Setting s : scenario.settings()) {
      OptionSpec option = ingest.getCommandSpec().findOption("--" + s.key());
      if (option == null) continue; // a 'run' key (rate, duration)
      if (option.arity().max() == 0) {
        if (Boolean.parseBoolean(s.value())) args.add("--" + s.key());
      } else {
        args.add("--" + s.key() + "=" + s.value());
      }
    }
    cl.setErr(new PrintWriter(err));
    return cl.execute(args.toArray(String[]::new));
  }
}
