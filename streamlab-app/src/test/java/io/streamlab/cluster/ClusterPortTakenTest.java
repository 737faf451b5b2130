package io.streamlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.streamlab.process.Ports;
import io.streamlab.testing.ClusterProbe;
import io.streamlab.testing.PortThief;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI failure of ClusterAcceptanceTest (two Kafka nodes exited, the quorum never formed), made
 * certain: a Kafka node's controller port and the JobManager's REST port are taken after they were
 * chosen and before the members bind them. {@code cluster up} must see the members exit on it,
 * say so, start Kafka's quorum and Flink again on fresh ports and come up whole; {@code down}
 * must then find every port it records free.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterPortTakenTest {
  @TempDir Path dir;

  @Test
  void membersWhosePortsWereTakenStartAgainOnFreshPorts() throws Exception {
    assumeTrue(LocalPostgres.reachable(), "no PostgreSQL at 127.0.0.1:5432");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true);
    // ports go out in this order: kafka-1 client, controller, kafka-2 client, controller, ...,
    // then the JobManager's RPC and REST ports: take kafka-2's controller port and the REST port
    try (PortThief thief = new PortThief(4, 8)) {
      LocalCluster cluster = LocalCluster.up(dir.resolve("cluster"), 1, 1, 3, out, thief);
      try {
        String said = bytes.toString();
        assertTrue(said.contains("kafka-2 exited: a port chosen for it was taken"), said);
        assertTrue(said.contains("starting Kafka again on fresh ports (attempt 2 of 3)"), said);
        assertTrue(said.contains("jobmanager exited: a port chosen for it was taken"), said);
        assertTrue(said.contains("starting Flink again on fresh ports (attempt 2 of 3)"), said);
        ClusterState state = cluster.state();
        assertEquals(5, state.members().size(), "3 brokers, JobManager, 1 TaskManager: " + state.members());
        assertTrue(cluster.allUp(), cluster.status());
        for (int taken : thief.taken()) assertFalse(state.ports().contains(taken), taken + " is still the cluster's: " + state.ports());
        assertEquals(3, ClusterProbe.brokers(state.bootstrapServers())); // a query a loaded machine slows is asked again
        assertEquals(1, ClusterProbe.taskManagers(state.flinkMaster()));
      } finally {
        List<Integer> busy = cluster.down(out);
        assertEquals(List.of(), busy, "ports left in use after down: " + bytes);
      }
    }
  }
}
