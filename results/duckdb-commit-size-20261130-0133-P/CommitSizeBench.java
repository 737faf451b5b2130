import java.lang.management.ManagementFactory;
import java.nio.file.*;
import java.sql.*;

/**
 * DuckDB 1.4: CPU per row of appending rows to a file table in transactions of N rows, each
 * committed (the streamlab DuckDB path's shape: an INSERT ... SELECT per append, autocommitted).
 * Each INSERT makes its rows from range() (~1.1 KB, 24 columns), so the figure is DuckDB's
 * append + commit + log + checkpoint and the rows' making; what the making costs by itself is
 * printed beside it, not subtracted.
 *   java -cp duckdb_jdbc.jar CommitSizeBench.java DIR TOTAL_ROWS N [SQL_SETTING...]
 */
public class CommitSizeBench {
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    long total = Long.parseLong(a[1]);
    int n = Integer.parseInt(a[2]);
    Files.createDirectories(dir);
    Path file = dir.resolve("bench.duckdb");
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir.resolve("bench.duckdb.wal"));
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    String rg = System.getProperty("rowGroupSize");
    try (Connection c = DriverManager.getConnection(rg == null ? "jdbc:duckdb:" + file : "jdbc:duckdb:"); Statement st = c.createStatement()) {
      if (rg != null) {
        st.execute("ATTACH '" + file + "' AS db (ROW_GROUP_SIZE " + rg + ")");
        st.execute("USE db");
      }
      st.execute("SET threads = 1");
      st.execute("SET wal_autocheckpoint = '2GB'");
      for (int i = 3; i < a.length; i++) st.execute(a[i]);
      StringBuilder cols = new StringBuilder("producer_id INTEGER, sequence BIGINT, send_time_micros BIGINT, write_time_micros BIGINT");
      StringBuilder gen = new StringBuilder("(i % 4)::INTEGER, i, 1700000000000000 + i, 1700000000000000 + i");
      for (int k = 0; k < 10; k++) {
        cols.append(", s").append(k).append(" VARCHAR");
        // ~100 chars, partly repeating, partly varying (as events' text fields are)
        gen.append(", 'field").append(k).append("-' || md5((i * ").append(k + 7).append(")::VARCHAR) || '-' || md5((i % 1000 + ").append(k).append(")::VARCHAR) || '-lorem-ipsum-dolor'");
      }
      for (int k = 0; k < 10; k++) {
        cols.append(", n").append(k).append(k % 2 == 0 ? " BIGINT" : " DOUBLE");
        gen.append(k % 2 == 0 ? ", (i * " + (k + 3) + ") % 1000003" : ", (i % 9973) / 7.0");
      }
      st.execute("CREATE TABLE events (" + cols + ")");
      // what making the rows costs by itself, printed beside the figure (the integer scale,
      // total / 262,144 = 7 for 2 M rows rather than 7.63, reads it ~8 % low)
      long g0 = os.getProcessCpuTime();
      try (Statement t = c.createStatement()) {
        t.execute("CREATE TEMP TABLE gen_only AS SELECT " + gen + " FROM range(0, " + Math.min(total, 262144) + ") t(i)");
      }
      long genCpu = (os.getProcessCpuTime() - g0) * (total / Math.min(total, 262144));
      long start = os.getProcessCpuTime(), wall = System.nanoTime();
      long done = 0;
      int commits = 0;
      while (done < total) {
        int rows = (int) Math.min(n, total - done);
        st.execute("INSERT INTO events SELECT " + gen + " FROM range(" + done + ", " + (done + rows) + ") t(i)");
        done += rows;
        commits++;
      }
      long cpu = os.getProcessCpuTime() - start;
      if (Boolean.getBoolean("checkpointAtEnd")) {
        System.out.println("CHECKPOINT starts, pid " + ProcessHandle.current().pid());
        Thread.sleep(Long.getLong("pauseMs", 0));
        long c0 = os.getProcessCpuTime(), w0 = System.nanoTime();
        st.execute("CHECKPOINT");
        long cc = os.getProcessCpuTime() - c0;
        System.out.printf("CHECKPOINT of what the loop left: %.2f s CPU (%.2f us per row), wall %.1f s%n", cc / 1e9, cc / 1e3 / total, (System.nanoTime() - w0) / 1e9);
      }
      System.out.printf("making the rows alone (into an in-memory temp table, scaled): %.2f s CPU%n", genCpu / 1e9);
      double wallS = (System.nanoTime() - wall) / 1e9;
      try (ResultSet r = st.executeQuery("SELECT count(*) FROM events")) { r.next(); if (r.getLong(1) != total) throw new AssertionError(r.getLong(1)); }
      System.out.printf("rows/commit %,d  commits %,d  rows %,d  CPU %.2f s  %.2f us/row  %.2f ms/commit  wall %.1f s  settings %s%n",
          n, commits, total, cpu / 1e9, cpu / 1e3 / total, cpu / 1e6 / commits, wallS, (a.length > 3 ? String.join("; ", java.util.Arrays.copyOfRange(a, 3, a.length)) : "-") + (rg == null ? "" : "; ROW_GROUP_SIZE " + rg));
    }
  }
}
