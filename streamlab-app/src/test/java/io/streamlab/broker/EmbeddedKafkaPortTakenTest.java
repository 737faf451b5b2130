package io.streamlab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.ClusterProbe;
import io.streamlab.testing.PortThief;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race that broke a cluster in CI, made certain: the port chosen for the broker is taken by
 * another listener after it was chosen and before the broker binds it. The real broker must exit
 * on it, and start-up must notice, say so and come up on fresh ports.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddedKafkaPortTakenTest {
  @TempDir Path dir;

  @Test
  void aBrokerWhosePortWasTakenStartsAgainOnFreshPorts() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PortThief thief = new PortThief(1); EmbeddedKafka kafka = EmbeddedKafka.start(dir, thief, new PrintStream(out, true))) {
      int taken = thief.taken().get(0);
      assertTrue(out.toString().contains("found port " + taken), out.toString());
      assertTrue(out.toString().contains("attempt 2 of 3"), out.toString());
      assertNotEquals("127.0.0.1:" + taken, kafka.bootstrapServers());
      // and it serves: the broker is up on its new port (a query a loaded machine slows is asked again)
      assertEquals(1, ClusterProbe.brokers(kafka.bootstrapServers()));
      Topics.create(kafka.bootstrapServers(), "after-retry", 1);
    }
  }
}
