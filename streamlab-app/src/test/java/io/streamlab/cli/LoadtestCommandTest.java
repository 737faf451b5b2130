package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code streamlab loadtest} from the command line: its wiring, its reports and its user errors. */
class LoadtestCommandTest {
  @TempDir Path dir;

  @Test
  void shortRunOnTheEmbeddedBrokerWritesTheThreeReports() throws Exception {
    Path out = dir.resolve("lt");
    int code = Main.commandLine().execute("loadtest", "--burnIn=0s", "--window=2s", "--interval=1s",
        "--ratePerSec=1000", "--messageSize=500B-2KB", "--outDir=" + out);
    assertEquals(0, code, "0 missing, 0 duplicates, 0 errors");
    List<String> csv = Files.readAllLines(out.resolve("loadtest.csv"));
    assertEquals(3, csv.size(), csv.toString());
    assertTrue(csv.get(2).contains(",subscriber,"), csv.get(2));
    assertTrue(Files.readString(out.resolve("loadtest.json")).contains("\"samples\""));
    assertTrue(Files.readString(out.resolve("loadtest.html")).contains("<svg"));
  }

  @Test
  void userMistakesAreOneLineAndExitTwo() {
    assertUserError("streamlab: --role must be both, publish or subscribe; was 'sideways'", "--role=sideways");
    assertUserError("streamlab: --sweep must be one of none, cores, threads, message-size; was 'sizes'", "--sweep=sizes");
    assertUserError("streamlab: --driver must be kafka or pubsub; was 'rabbit'", "--driver=rabbit");
    assertUserError("streamlab: --backlogBuild needs --role=both (it publishes, then drains)",
        "--role=publish", "--backlogBuild=5s");
  }

  private void assertUserError(String expected, String... args) {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    String[] all = new String[args.length + 2];
    all[0] = "loadtest";
    all[1] = "--outDir=" + dir.resolve("never");
    System.arraycopy(args, 0, all, 2, args.length);
    assertEquals(2, cl.execute(all), err.toString());
    assertEquals(expected, err.toString().trim());
  }
}
