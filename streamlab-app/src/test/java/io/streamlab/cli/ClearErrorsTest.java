package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.broker.EmbeddedKafka;
import io.streamlab.broker.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What used to become a Flink restart loop (or a reader waiting for ever) is one clear line and a
 * non-zero exit before the pipeline starts: nonsense values, an unusable store path, an
 * unreachable broker (within --brokerTimeout) and a missing topic (the existing ones listed).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClearErrorsTest {
  @TempDir Path dir;

  private record Outcome(int code, String err) {}

  private static Outcome execute(String... args) {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    return new Outcome(cl.execute(args), err.toString());
  }

  @Test
  void nonsenseValuesAreRefusedBeforeAnythingStarts() {
    List<String[]> cases = List.of(
        new String[] {"--duration must be > 0", "run", "--duration=0s", "--runDir=" + dir.resolve("a")},
        new String[] {"--duration must be > 0", "run", "--duration=-3s", "--runDir=" + dir.resolve("b")},
        new String[] {"--parallelism must be >= 0", "run", "--parallelism=-1", "--runDir=" + dir.resolve("c")},
        new String[] {"--parallelism must be >= 0", "ingest", "--bootstrapServers=127.0.0.1:1", "--parallelism=-1"},
        new String[] {"--maxReadTime must be > 0", "ingest", "--bootstrapServers=127.0.0.1:1", "--maxReadTime=0s"},
        new String[] {"--maxBundleSize must be >= 1", "ingest", "--bootstrapServers=127.0.0.1:1", "--maxBundleSize=0"},
        new String[] {"--kafkaReader=POLLED runs on Flink and the direct runner", "ingest", "--bootstrapServers=127.0.0.1:1",
            "--kafkaReader=POLLED", "--runner=DataflowRunner"},
        new String[] {"--kafkaReader reads Kafka", "ingest", "--source=pubsub", "--subscription=projects/p/subscriptions/s",
            "--kafkaReader=POLLED"},
        new String[] {"--duration must be > 0", "sinkbench", "--duration=0s", "--runDir=" + dir.resolve("d")},
        new String[] {"--holdAtShare must be a share in [0, 1]", "run", "--mode=max", "--holdAtShare=80", "--runDir=" + dir.resolve("e")},
        new String[] {"--holdAtShare is for --mode=max", "run", "--holdAtShare=0.8", "--runDir=" + dir.resolve("f")},
        new String[] {"--commitPerBundle holds DuckDB's appends only", "run", "--commitPerBundle", "--store=postgres",
            "--jdbcUrl=jdbc:postgresql://127.0.0.1:1/x", "--runDir=" + dir.resolve("g")},
        new String[] {"--commitPerBundle holds DuckDB's appends only", "ingest", "--bootstrapServers=127.0.0.1:1",
            "--commitPerBundle", "--fakeQuota"},
        new String[] {"--commitPerBundle applies to", "run", "--commitPerBundle", "--writeMethod=STORAGE_WRITE_API",
            "--runDir=" + dir.resolve("h")},
        new String[] {"--commitPerBundle applies to", "ingest", "--bootstrapServers=127.0.0.1:1", "--commitPerBundle",
            "--useConnectionPool"});
    for (String[] c : cases) {
      String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
      Outcome o = execute(args);
      assertEquals(2, o.code, String.join(" ", args) + ": " + o.err);
      assertTrue(o.err.contains(c[0]), String.join(" ", args) + ": " + o.err);
    }
    for (String d : List.of("a", "b", "c", "d", "e", "f", "g", "h")) assertFalse(Files.exists(dir.resolve(d)), "refused before " + d);
  }

  @Test
  void anUnreachableBrokerIsAnErrorWithinTheTimeout() {
    Outcome o = execute("ingest", "--bootstrapServers=127.0.0.1:1", "--brokerTimeout=3s",
        "--db=" + dir.resolve("x.duckdb"));
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("did not answer within 3 s (--brokerTimeout)"), o.err);
  }

  @Test
  void anUnusableStorePathIsAnError() {
    Outcome o = execute("ingest", "--bootstrapServers=127.0.0.1:1", "--db=/nonexistent-dir/x.duckdb");
    assertEquals(2, o.code, o.err);
    assertTrue(o.err.contains("cannot be opened"), o.err);
    assertTrue(o.err.contains("/nonexistent-dir/x.duckdb"), o.err);
  }

  @Test
  void aMissingTopicIsAnErrorThatListsTheExistingOnes() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      Topics.create(kafka.bootstrapServers(), "present", 1);
      Outcome o = execute("ingest", "--bootstrapServers=" + kafka.bootstrapServers(), "--topic=does-not-exist",
          "--db=" + dir.resolve("x.duckdb"));
      assertEquals(2, o.code, o.err);
      assertTrue(o.err.contains("the topic 'does-not-exist' does not exist"), o.err);
      assertTrue(o.err.contains("existing topics: present"), o.err);
    }
  }
}
