package io.streamlab.cluster;

import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.IngestStatus;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.function.Supplier;

/**
 * The status of an ingestion running on a Flink cluster, for {@code streamlab ingest}'s status
 * lines: its workers live in other JVMs, so the in-process counters (IngestMetrics) stay empty.
 * Rows written and dead-lettered are counted in the table store itself; "ready" is the job
 * RUNNING with its table created. Shuffle bytes come from Flink's REST metrics ({@link
 * ShuffleMeter}). Bytes read and latency are not known here (bytes 0, p99 -1 = unknown): the run
 * derives them from the generator and from the table's send/write time columns at the end, and
 * measures the TaskManagers' CPU itself ({@link TaskManagerCpu}).
 */
public final class RemoteJobStatus implements Supplier<IngestStatus> {
  private final FlinkRest flink;
  private final String jobName;
  private final StoreSpec store;
  private final String table;
  private final ShuffleMeter shuffle;
  private IngestStatus last = IngestStatus.NONE;
  private long shuffled;

  public RemoteJobStatus(String flinkMaster, String jobName, StoreSpec store, String table) {
    this.flink = new FlinkRest(flinkMaster);
    this.jobName = jobName;
    this.store = store;
    this.table = table;
    this.shuffle = new ShuffleMeter(flink, jobName);
  }

  /** The job's current figures; the previous ones while the store or Flink does not answer (a fault). */
  @Override
  public synchronized IngestStatus get() {
    try (TableStore s = store.open(); Connection c = s.openQueryConnection()) {
      long rows = count(c, table);
      long failed = count(c, DeadLetters.tableFor(table));
      boolean ready = last.ready() || (rows >= 0 && "RUNNING".equals(flink.jobState(jobName)));
      try {
        shuffled = shuffle.bytes();
      } catch (java.io.IOException flinkBusy) {
        System.err.println("[streamlab] shuffle bytes: Flink REST did not answer (" + flinkBusy.getMessage()
            + "); keeping the last figure");
      }
      last = new IngestStatus(ready, Math.max(rows, 0) + Math.max(failed, 0), 0, Math.max(rows, 0), Math.max(failed, 0),
          IngestStatus.UNKNOWN, shuffled, 0, java.util.Map.of());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception unavailable) {
      // PostgreSQL restarting or Flink busy: report the last figures
    }
    return last;
  }

  /** Cancels the job on the cluster (a client that exits would otherwise leave it running). */
  public void cancel() {
    try {
      flink.cancel(jobName);
    } catch (Exception e) {
      System.err.println("[streamlab] could not cancel Flink job " + jobName + ": " + e.getMessage());
    }
  }

  /** @return rows in the table, -1 if it does not exist yet */
  private static long count(Connection c, String table) {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + table.replace("\"", "\"\"") + "\"")) {
      rs.next();
      return rs.getLong(1);
    } catch (Exception missing) {
      return -1;
    }
  }
}
