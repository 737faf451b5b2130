package io.streamlab.cli;

import io.streamlab.cluster.RemoteJobStatus;
import io.streamlab.pipeline.IngestPipeline;
import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.StatusReporter;
import io.streamlab.store.StoreSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import io.streamlab.store.JdbcUrls;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = {"Run the ingestion pipeline: read the topic, unbatch/decompress envelopes, decode, apply the UDF, "
        + "write with --writeMethod into a table whose columns come from the schema, plus system columns (producer id, sequence, "
        + "intended send time, write time). The table is created if missing. Events that fail go to "
        + "<table>_failed with their bytes. Runs until stopped (Ctrl-C) unless bounded.",
        "With --store=bigquery --outputTable=PROJECT:DATASET.TABLE, Beam's BigQueryIO writes the rows, with "
        + "--writeMethod, --formatToStore and the streaming/storage flags mapped onto its own (no write time column; "
        + "credentials from Application Default Credentials)."})
public final class IngestCommand implements Callable<Integer> {
  /** Written to stdin (with --stopOnStdinClose): end the current latency interval now. */
  public static final String MARK = "mark";

  @Option(names = "--bootstrapServers", required = true, description = "Kafka bootstrap servers, host:port[,host:port].")
  String bootstrapServers;

  @Option(names = "--topic", defaultValue = "events", description = "Topic to read. Default: ${DEFAULT-VALUE}.")
  String topic;

  @Option(names = "--table", defaultValue = "events", description = "Table to append to. Default: ${DEFAULT-VALUE}.")
  String table;

  @Mixin SchemaOptions schema;
  @Mixin RunnerOptions runner;
  @Mixin DecodeOptions decode;
  @Mixin ThrottleOptions throttle;
  @Mixin WriteOptions write;
  @Mixin StoreOptions store;

  @Option(names = "--maxRecords", description = "Stop after reading this many messages (bound with --maxReadTime too).")
  Long maxRecords;

  @Option(names = "--maxReadTime", converter = DurationConverter.class,
      description = "Stop reading after this long, e.g. 60s.")
  Duration maxReadTime;

  @Option(names = "--statusIntervalMs", defaultValue = "5000",
      description = "Print a status line this often (ms); 0 = never. Default: ${DEFAULT-VALUE}.")
  long statusIntervalMs;

  @Option(names = "--latencyLog", paramLabel = "FILE",
      description = "Append each status interval's latency histogram to this HdrHistogram log.")
  Path latencyLog;

  @Option(names = "--brokerTimeout", defaultValue = "30s", converter = DurationConverter.class,
      description = "How long to wait for the Kafka broker to answer before giving up with an error (checked "
          + "before the pipeline starts, with the topic). Default: ${DEFAULT-VALUE}.")
  Duration brokerTimeout;

  @Option(names = "--stopOnStdinClose", description = "Stop when standard input closes (used by 'streamlab run').")
  boolean stopOnStdinClose;

  @Override
  public Integer call() throws Exception {
    validate();
    IngestSettings settings = new IngestSettings(bootstrapServers, topic, schema.load(),
        schema.transportFormat, storeSpec(), store.table(table),
        runner.appendBatchSize, maxRecords, maxReadTime, decode.toDecoding(), write.toSettings());
    // Checked here, not left to the job: inside Flink each is a task failure and a restart loop.
    Preflight.storeOpens(settings.store());
    Preflight.topicExists(bootstrapServers, topic, brokerTimeout);
    Pipeline pipeline = Pipeline.create(runner.toChoice().toOptions());
    IngestPipeline.build(pipeline, settings);
    // on a Flink cluster the workers are other JVMs: status from the table and Flink's REST API
    RemoteJobStatus remote = runner.onFlinkCluster() ? new RemoteJobStatus(runner.flinkMaster,
        pipeline.getOptions().getJobName(), settings.store(), table) : null;
    StatusReporter reporter = statusIntervalMs > 0
        ? new StatusReporter(System.out, statusIntervalMs, latencyLog, remote) : null;
    if (stopOnStdinClose) watchStdin(reporter, remote);
    try {
      PipelineResult result = pipeline.run();
      result.waitUntilFinish();
    } catch (RuntimeException e) {
      // The restart strategy is bounded (FlinkConf): a failure that keeps coming back ends here,
      // as one line with the root cause ('run' quotes this line from its child's output).
      if (reporter != null) reporter.close();
      System.err.println("streamlab: ingestion failed: " + JdbcUrls.mask(Preflight.rootMessage(e)));
      return 1;
    }
    if (reporter != null) reporter.close();
    return 0;
  }

  /** Nonsense values are refused before anything starts (exit 2). */
  private void validate() {
    runner.validate();
    Preflight.positive("--maxReadTime", maxReadTime);
    Preflight.positive("--brokerTimeout", brokerTimeout);
    if (maxRecords != null) Preflight.atLeast(java.util.Map.of("--maxRecords", maxRecords), 1);
  }

  /** The store; BigQueryIO retries by its own policy, so throttling and the fake quota apply to the others only. */
  private StoreSpec storeSpec() {
    StoreSpec spec = store.toSpec(Path.of("streamlab.duckdb"));
    if (spec.kind() != StoreSpec.Kind.BIGQUERY) return spec.withDecorator(throttle.toSpec());
    if (throttle.fakeQuota) {
      throw new IllegalArgumentException("--fakeQuota stands in for BigQuery's quota in front of DuckDB or PostgreSQL; "
          + "with --store=bigquery the real quota applies");
    }
    return spec;
  }

  /**
   * The parent closes our stdin to stop us (and if the parent dies, stdin closes too, so no
   * orphan keeps the DuckDB file locked). Every append is already durable, so exiting is safe:
   * the JVM's shutdown hooks close the store. A line "mark" ends the current latency interval
   * at once, so the parent can tell warm-up latencies from measured ones.
   */
  private static void watchStdin(StatusReporter reporter, RemoteJobStatus remote) {
    Thread t = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          if (line.trim().equals(MARK) && reporter != null) reporter.mark();
        }
      } catch (Exception ignored) {
        // closed either way
      }
      if (reporter != null) reporter.close();
      if (remote != null) remote.cancel(); // the job would outlive this client on a cluster
      System.exit(0);
    }, "stdin-watch");
    t.setDaemon(true);
    t.start();
  }
}
