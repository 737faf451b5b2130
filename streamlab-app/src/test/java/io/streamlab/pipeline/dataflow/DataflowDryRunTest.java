package io.streamlab.pipeline.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.cli.Main;
import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DataflowDryRunTest {
  @TempDir Path dir;

  @Test
  void probe() {
    Scenario s = ScenarioCatalog.resolve("4-storage-write-api");
    Path job = dir.resolve("job.json");
    int code = dryRun(s, job);
    assertEquals(0, code);
    System.out.println(job);
    try { java.nio.file.Files.copy(job, java.nio.file.Path.of("/tmp/cloud-job.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING); } catch (Exception e) { throw new RuntimeException(e); }
  }

  static int dryRun(Scenario s, Path job) {
    CommandLine cl = Main.commandLine();
    CommandLine ingest = cl.getSubcommands().get("ingest");
    List<String> args = new ArrayList<>(List.of("ingest", "--source=pubsub", "--subscription=projects/lab-project/subscriptions/events",
        "--store=bigquery", "--outputTable=lab-project:streamlab.events", "--dryRun=" + job,
        "--project=lab-project", "--region=europe-west1", "--tempLocation=gs://lab-temp/streamlab", "--enableStreamingEngine", "--maxNumWorkers=4"));
    for (Scenario.Setting x : s.settings()) {
      if (ingest.getCommandSpec().findOption("--" + x.key()) != null) args.add("--" + x.key() + "=" + x.value());
    }
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args.toArray(String[]::new));
    System.out.println(err);
    return code;
  }
}
