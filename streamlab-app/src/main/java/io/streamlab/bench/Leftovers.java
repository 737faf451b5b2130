package io.streamlab.bench;

import io.streamlab.process.Trees;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What runs left behind ({@link RunArtifacts}): run directories, tables and schemas in shared
 * stores, topics in a Kafka cluster. Found by their names only, so nothing a user named is ever
 * listed; each is removed only when asked ({@code streamlab clean --yes}).
 */
public final class Leftovers {
  /** One thing a run left behind, and how to remove it. */
  public record Item(String kind, String where, String name, Removal removal) {
    public void remove() throws Exception {
      removal.run();
    }

    @Override
    public String toString() {
      return String.format("%-13s %s%s", kind, where.isEmpty() ? "" : where + "  ", name);
    }
  }

  @FunctionalInterface
  public interface Removal {
    void run() throws Exception;
  }

  private Leftovers() {}

  /** Directories under {@code runsDir} named as a run's, a load test's or a sink benchmark's. */
  public static List<Item> runDirectories(Path runsDir) throws IOException {
    if (!Files.isDirectory(runsDir)) return List.of();
    List<Item> items = new ArrayList<>();
    try (Stream<Path> entries = Files.list(runsDir)) {
      entries.filter(Files::isDirectory).sorted()
          .filter(p -> RunArtifacts.RUN_DIRECTORY.matcher(p.getFileName().toString()).matches())
          .forEach(p -> items.add(new Item("run directory", "", p.toString(), () -> Trees.delete(p))));
    }
    return items;
  }

  /**
   * Run tables (and their dead-letter tables) in the store's current schema; in PostgreSQL also
   * the schemas of cluster runs, with everything in them.
   */
  public static List<Item> inStore(StoreSpec spec) throws Exception {
    List<Item> items = new ArrayList<>();
    try (TableStore store = spec.undecorated().open(); Connection c = store.openQueryConnection();
        Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables "
          + "WHERE table_schema = current_schema() ORDER BY table_name")) {
        while (rs.next()) {
          String t = rs.getString(1);
          if (RunArtifacts.TABLE.matcher(t).matches()) {
            items.add(new Item("table", spec.toString(), t, () -> execute(spec, "DROP TABLE IF EXISTS " + quote(t))));
          }
        }
      }
      if (spec.kind() == StoreSpec.Kind.POSTGRES) {
        try (ResultSet rs = st.executeQuery("SELECT schema_name FROM information_schema.schemata ORDER BY schema_name")) {
          while (rs.next()) {
            String s = rs.getString(1);
            if (RunArtifacts.SCHEMA.matcher(s).matches()) {
              items.add(new Item("schema", spec.toString(), s,
                  () -> execute(spec, "DROP SCHEMA IF EXISTS " + quote(s) + " CASCADE")));
            }
          }
        }
      }
    }
    return items;
  }

  /** Topics of runs and load tests in the Kafka cluster at {@code bootstrapServers}. */
  public static List<Item> topics(String bootstrapServers) throws Exception {
    List<Item> items = new ArrayList<>();
    try (Admin admin = admin(bootstrapServers)) {
      admin.listTopics().names().get().stream().sorted()
          .filter(t -> RunArtifacts.TOPIC.matcher(t).matches())
          .forEach(t -> items.add(new Item("topic", bootstrapServers, t, () -> deleteTopic(bootstrapServers, t))));
    }
    return items;
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
  }

  private static void deleteTopic(String bootstrapServers, String topic) throws Exception {
    try (Admin admin = admin(bootstrapServers)) {
      admin.deleteTopics(Set.of(topic)).all().get();
    }
  }

  private static void execute(StoreSpec spec, String sql) throws Exception {
    try (TableStore store = spec.undecorated().open(); Connection c = store.openQueryConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
