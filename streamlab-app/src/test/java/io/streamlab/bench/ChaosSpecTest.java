package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The --chaos grammar, and the user errors of combining it with (or without) --cluster. */
class ChaosSpecTest {
  @Test
  void parsesIngestKillsAndClusterFaults() {
    Chaos c = Chaos.parse("kill-ingest:2,kill-taskmanager,kill-broker,restart-postgres");
    assertEquals(2, c.ingestKills());
    assertEquals(List.of(ClusterFault.KILL_TASKMANAGER, ClusterFault.KILL_BROKER, ClusterFault.RESTART_POSTGRES),
        c.clusterFaults());
    assertTrue(c.any());
    assertFalse(Chaos.parse("none").any());
  }

  @Test
  void unknownFaultIsAUserError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Chaos.parse("kill-everything"));
    assertTrue(e.getMessage().contains("kill-taskmanager"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Chaos.parse("kill-ingest:-1"));
  }

  @Test
  void clusterFaultsNeedACluster() {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("run", "--chaos=kill-broker", "--duration=1s");
    assertEquals(2, code);
    assertTrue(err.toString().contains("add --cluster"), err.toString());
  }

  @Test
  void restartPostgresNeedsThisMachinesServer() {
    for (String[] store : List.of(new String[] {}, new String[] {"--store=postgres", "--jdbcUrl=jdbc:postgresql://db.example:5432/x"})) {
      StringWriter err = new StringWriter();
      var cl = Main.commandLine();
      cl.setErr(new PrintWriter(err));
      List<String> args = new java.util.ArrayList<>(List.of("run", "--chaos=restart-postgres", "--duration=1s"));
      args.addAll(List.of(store));
      assertEquals(2, cl.execute(args.toArray(String[]::new)));
      assertTrue(err.toString().contains("restarts this machine's PostgreSQL"), err.toString());
      assertTrue(!err.toString().contains("\tat "), "no stack trace: " + err);
    }
    assertTrue(io.streamlab.cluster.LocalPostgres.isLocal("jdbc:postgresql://127.0.0.1:5432/test?user=postgres"));
    assertTrue(io.streamlab.cluster.LocalPostgres.isLocal("jdbc:postgresql://localhost/test"));
    assertTrue(!io.streamlab.cluster.LocalPostgres.isLocal("jdbc:postgresql://127.0.0.1:5433/test"));
  }

  @Test
  void runOnAMissingClusterNamesIt() {
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("run", "--cluster=/nonexistent/streamlab-cluster", "--duration=1s");
    assertEquals(2, code);
    assertTrue(err.toString().contains("no cluster in /nonexistent/streamlab-cluster"), err.toString());
  }
}
