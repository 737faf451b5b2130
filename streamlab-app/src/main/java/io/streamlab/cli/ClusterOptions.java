package io.streamlab.cli;

import io.streamlab.cluster.ClusterState;
import io.streamlab.cluster.JobJar;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import picocli.CommandLine.Option;

/** {@code streamlab run --cluster}: run against the cluster that {@code streamlab cluster up} started. */
final class ClusterOptions {
  @Option(names = "--cluster", arity = "0..1", fallbackValue = "cluster", paramLabel = "DIR",
      description = "Run on the cluster of 'streamlab cluster up' (its directory; bare --cluster = ./cluster): "
          + "Kafka = its brokers, the job submitted to its Flink JobManager with parallelism = all its slots "
          + "(unless --parallelism), checkpointing on (--checkpointIntervalMs), "
          + "the table in a fresh schema of its PostgreSQL (unless --store/--jdbcUrl). Default: off (embedded).")
  Path cluster;

  boolean enabled() {
    return cluster != null;
  }

  /**
   * Points the run's options at the cluster.
   *
   * @return the cluster's state
   */
  ClusterState applyTo(RunnerFlags runner, StoreOptions store, String bootstrapServers, String runId, Path runDir)
      throws Exception {
    ClusterState state = ClusterState.load(cluster);
    if (bootstrapServers != null) {
      throw new IllegalArgumentException("--cluster brings its own Kafka: drop --bootstrapServers (or drop --cluster)");
    }
    if (!runner.runner().startsWith("Flink")) {
      throw new IllegalArgumentException("--cluster runs on Flink: drop --runner=" + runner.runner());
    }
    runner.set("flinkMaster", state.flinkMaster());
    Integer parallelism = runner.value("parallelism");
    if (parallelism == null || parallelism == 0) runner.set("parallelism", state.totalSlots());
    runner.beamArgs.add("--jobName=streamlab-" + runId);
    runner.beamArgs.add("--filesToStage=" + JobJar.locate(runDir));
    if (store.getStore() == StoreOptions.Store.duckdb) {
      if (store.getDb() != null) {
        throw new IllegalArgumentException("--cluster: TaskManagers in several processes cannot share a DuckDB file (--db); "
            + "use the cluster's PostgreSQL (the default) or --store=postgres --jdbcUrl=...");
      }
      store.setStore(StoreOptions.Store.postgres);
      store.setJdbcUrl(freshSchema(state.jdbcUrl(), io.streamlab.bench.RunArtifacts.schema(runId)));
      System.out.println("[streamlab] cluster run: table in " + store.getJdbcUrl()); // never holds a password
    }
    return state;
  }

  /** Creates the schema in the cluster's database; returns the URL whose current schema it is. */
  private static String freshSchema(String jdbcUrl, String schema) throws Exception {
    try (TableStore s = StoreSpec.postgres(jdbcUrl, null).open(); Connection c = s.openQueryConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
    }
    return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }
}
