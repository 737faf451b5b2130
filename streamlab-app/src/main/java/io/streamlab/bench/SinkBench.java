package io.streamlab.bench;

import io.streamlab.pipeline.GeneratedLoad;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.store.quota.QuotaLimits;
import io.streamlab.store.quota.TableQuota;
import io.streamlab.store.throttle.Strategy;
import io.streamlab.store.throttle.ThrottleSpec;
import io.streamlab.store.throttle.ThrottleStats;
import io.streamlab.store.throttle.Tuning;
import io.streamlab.store.throttle.WriterPool;
import io.streamlab.schema.SystemColumns;
import java.io.PrintStream;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.PipelineResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.beam.sdk.Pipeline;

/**
 * {@code streamlab sinkbench}: the same generated load (rows at a rate for a duration) written
 * by each throttling strategy and writer pool in turn, through the pipeline's write stage on a
 * real Beam runner, into a fresh DuckDB file behind the fake warehouse quota; each table is then
 * verified. The runner retries failed bundles (Flink: restart from the last checkpoint), which is
 * how {@code none} recovers from a quotaExceeded, at the price of duplicates.
 */
public final class SinkBench {
  /** One strategy on one writer pool, behind one write method. */
  public record Variant(WriteMethod method, Strategy strategy, WriterPool pool) {
    /** Behind the at-least-once appends of the reading stage. */
    public Variant(Strategy strategy, WriterPool pool) {
      this(WriteMethod.STORAGE_API_AT_LEAST_ONCE, strategy, pool);
    }

    /** The element each write method carries in the study: JSON rows for streaming inserts. */
    WriteSettings writeSettings() {
      return WriteSettings.of(method, method == WriteMethod.STREAMING_INSERTS ? FormatToStore.TABLE_ROW
          : FormatToStore.AVRO_GENERIC_RECORD);
    }

    @Override
    public String toString() {
      return method + "/" + strategy + "/" + pool;
    }
  }

  /**
   * @param runner the Beam runner (checkpointing and restart flags included: see SinkbenchCommand)
   * @param timeout a variant whose table is not complete after this long is stopped and reported
   * @param stallTimeout a variant whose table gains no row for this long is stopped and reported:
   *     completion follows what is written, not a fixed wait
   */
  public record Config(Path dir, Schema eventSchema, long rows, long ratePerSec, long seed, List<Variant> variants,
      Tuning tuning, QuotaLimits quota, RunnerChoice runner, int appendBatchSize, String table, Duration timeout,
      Duration stallTimeout) {}

  private final Config config;
  private final PrintStream out;

  public SinkBench(Config config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  public List<SinkBenchResult> execute() throws Exception {
    Files.createDirectories(config.dir());
    List<SinkBenchResult> results = new ArrayList<>();
    for (Variant v : config.variants()) {
      out.printf("[sinkbench] %s: %,d rows at %,d rows/s ...%n", v, config.rows(), config.ratePerSec());
      SinkBenchResult r = runOne(v);
      out.printf("[sinkbench] %s: done in %.1f s (%s)%n", v, r.pipelineSeconds(), r.outcome());
      results.add(r);
    }
    return results;
  }

  /** Runs one variant into its own DuckDB file (so its quota, throttle and counters are its own). */
  SinkBenchResult runOne(Variant v) throws Exception {
    StoreSpec plain = StoreSpec.duckdb(config.dir().resolve(
        v.method().name().toLowerCase() + "-" + v.strategy() + "-pool-" + v.pool() + ".duckdb"));
    ThrottleSpec throttle = new ThrottleSpec(v.strategy(), v.pool(), config.tuning(), config.quota());
    Pipeline p = Pipeline.create(config.runner().toOptions());
    // Not blocking in run(): the source is unbounded, the job is cancelled once the table is complete.
    p.getOptions().as(FlinkPipelineOptions.class).setAttachedMode(false);
    p.getOptions().as(DirectOptions.class).setBlockOnRun(false);
    GeneratedLoad.build(p, plain.withDecorator(throttle), config.table(), config.eventSchema(), config.rows(),
        config.ratePerSec(), config.seed(), config.appendBatchSize(), v.writeSettings());
    long start = System.nanoTime();
    String outcome;
    Verification verified;
    long inTable;
    // Holding the store open keeps the DuckDB instance (shared in this JVM) for the polls.
    try (TableStore s = plain.open(); Connection c = s.openQueryConnection()) {
      s.createTableIfMissing(config.table(), SystemColumns.tableRecordSchema(config.eventSchema()));
      PipelineResult job = p.run();
      outcome = awaitComplete(job, c, start);
      try {
        job.cancel();
        job.waitUntilFinish(org.joda.time.Duration.standardSeconds(30));
      } catch (Exception e) {
        // already ended (failed): the outcome says so
      }
      awaitNoAppendInFlight(c, plain.toString());
      verified = TableVerifier.verify(c, config.table(), Map.of(GeneratedLoad.PRODUCER_ID, config.rows()),
          Set.of(GeneratedLoad.PRODUCER_ID));
      inTable = distinctInTable(c);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String storeId = plain.toString();
    return SinkBenchResult.of(v, config.rows(), seconds, outcome, ThrottleStats.find(storeId, config.table()),
        TableQuota.find(storeId, config.table()), verified, inTable);
  }

  /**
   * Waits (up to 15 s) until the table's rows and the rows its quota counted as written stay the
   * same for a second. A cancelled job can end while a writer's append is still running (the
   * append has a thread of its own, and a DuckDB call cannot be interrupted), and the table and the
   * quota's count are read one after the other: an append that lands between the two reads would
   * make them disagree.
   */
  private void awaitNoAppendInFlight(Connection c, String storeId) throws Exception {
    String sql = "SELECT count(*) FROM " + TableVerifier.quote(config.table());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    long[] last = null;
    while (System.nanoTime() < deadline) {
      long rows = count(c, sql);
      TableQuota quota = TableQuota.find(storeId, config.table());
      long[] now = {rows, quota == null ? 0 : quota.acceptedRows()};
      if (Arrays.equals(now, last)) return;
      last = now;
      Thread.sleep(1000);
    }
  }

  /** Distinct generated rows in the table itself (dead letters are not "in the table"). */
  private long distinctInTable(Connection c) throws Exception {
    return count(c, "SELECT count(DISTINCT " + SystemColumns.SEQUENCE + ") FROM " + TableVerifier.quote(config.table()));
  }

  /** The one number a {@code SELECT count(...)} returns. */
  private static long count(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Polls the table until every row is in it, the job ends, no row has arrived for the stall
   * timeout (a row that will never come is not waited for), or the overall timeout passes.
   */
  private String awaitComplete(PipelineResult job, Connection c, long startNanos) throws Exception {
    long seen = -1;
    long lastProgressNanos = System.nanoTime();
    while (true) {
      long now = distinctInTable(c);
      if (now >= config.rows()) return "ok";
      if (now != seen) {
        seen = now;
        lastProgressNanos = System.nanoTime();
      } else if (System.nanoTime() - lastProgressNanos > config.stallTimeout().toNanos()) {
        return "stalled: no new row for " + config.stallTimeout().toSeconds() + " s";
      }
      PipelineResult.State state;
      try {
        state = job.getState();
      } catch (IllegalStateException e) {
        state = PipelineResult.State.UNKNOWN; // Flink: the job's MiniCluster is gone, the job has ended
      }
      if (state.isTerminal() || state == PipelineResult.State.UNKNOWN) return "runner ended: " + state;
      if (System.nanoTime() - startNanos > config.timeout().toNanos()) {
        return "timed out after " + config.timeout().toSeconds() + " s";
      }
      Thread.sleep(500);
    }
  }

}
