package io.streamlab.cli;

import io.streamlab.bench.IngestProtocol;
import io.streamlab.cloud.gcp.DataflowService;
import io.streamlab.cluster.RemoteJobStatus;
import io.streamlab.pipeline.IngestPipeline;
import io.streamlab.pipeline.IngestSettings;
import io.streamlab.pipeline.RunnerChoice;
import io.streamlab.pipeline.dataflow.DataflowDryRun;
import io.streamlab.pipeline.source.KafkaReader;
import io.streamlab.pipeline.source.PubsubSource;
import io.streamlab.pipeline.source.Source;
import io.streamlab.pipeline.StatusReporter;
import io.streamlab.pipeline.write.RestartRewind;
import io.streamlab.store.JdbcUrls;
import io.streamlab.store.StoreSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.beam.runners.dataflow.DataflowPipelineJob;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.kafka.clients.consumer.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "ingest", mixinStandardHelpOptions = true, modelTransformer = BeamFlags.Ingestion.class,
    description = {"Run the ingestion pipeline: read the topic (Kafka, or Pub/Sub with --source=pubsub), unbatch/decompress envelopes, decode, apply the UDF, "
        + "write with --writeMethod into a table whose columns come from the schema, plus system columns (producer id, sequence, "
        + "intended send time, write time). The table is created if missing. Events that fail go to "
        + "<table>_failed with their bytes. Runs until stopped (Ctrl-C) unless bounded.",
        "With --store=bigquery --outputTable=PROJECT:DATASET.TABLE, Beam's BigQueryIO writes the rows, with "
        + "--writeMethod, --formatToStore and the streaming/storage flags mapped onto its own (no write time column; "
        + "credentials from Application Default Credentials).",
        "With --runner=DataflowRunner the job is submitted to Google Cloud Dataflow (--project, --region, --tempLocation "
        + "and Dataflow's other options below); --dryRun=FILE writes that job's JSON instead, offline."})
public final class IngestCommand implements Callable<Integer> {
  /** Where ingestion reads. */
  enum SourceKind { kafka, pubsub }

  @Option(names = "--source", defaultValue = "kafka",
      description = "Where to read: kafka (--bootstrapServers, --topic) or pubsub (--subscription; Beam's PubsubIO, "
          + "event identity and send time in the message attributes sl-pid, sl-seq, sl-ts; PUBSUB_EMULATOR_HOST "
          + "honoured). Default: ${DEFAULT-VALUE}.")
  SourceKind source;

  @Option(names = "--bootstrapServers", description = "--source=kafka: Kafka bootstrap servers, host:port[,host:port] (required).")
  String bootstrapServers;

  @Option(names = "--subscription", paramLabel = "projects/P/subscriptions/S",
      description = "--source=pubsub: the Pub/Sub subscription to read (required).")
  String subscription;

  @Option(names = "--dryRun", paramLabel = "FILE",
      description = "Do not run: translate the pipeline into the job DataflowRunner would submit (its JSON: steps, "
          + "options, worker pool) and write it to FILE, without credentials or network. Dataflow options not given "
          + "get placeholders, printed.")
  Path dryRun;

  @Option(names = "--topic", defaultValue = "events", description = "Topic to read. Default: ${DEFAULT-VALUE}.")
  String topic;

  @Option(names = "--table", defaultValue = "events", description = "Table to append to. Default: ${DEFAULT-VALUE}.")
  String table;

  @Mixin RunnerFlags runner;

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

  @Option(names = IngestProtocol.FLAG, description = "Stop when standard input closes (used by 'streamlab run').")
  boolean stopOnStdinClose;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    validate();
    Source from = source();
    // The pipeline's options hold the ingestion's own: the settings are read from the same options
    // the runner (and a Dataflow job) gets.
    PipelineOptions options = pipelineOptions();
    WriteOptions write = options.as(WriteOptions.class);
    SchemaOptions schema = options.as(SchemaOptions.class);
    StoreOptions store = BeamFlags.options(spec, StoreOptions.class);
    WriteOptions.checkCommitPerBundle(write, store.getStore(), options.as(ThrottleOptions.class).getFakeQuota());
    IngestSettings settings = new IngestSettings(bootstrapServers, topic, SchemaOptions.load(schema),
        schema.getTransportFormat(), storeSpec(store, options.as(ThrottleOptions.class)), StoreOptions.table(store, table),
        options.as(RunnerOptions.class).getAppendBatchSize(), maxRecords, maxReadTime, DecodeOptions.toDecoding(options.as(DecodeOptions.class)),
        WriteOptions.toSettings(write));
    if (write.getWriteMethod().exactlyOnce() && settings.store().kind() != StoreSpec.Kind.BIGQUERY) {
      io.streamlab.store.IdentityKey.requireIfExists(settings.store(), settings.table()); // a clear refusal, not a failed job
    }
    // The store and the topic are checked here, not left to the job: inside Flink each is a task
    // failure and a restart loop. The topic after the build, which reports configuration mistakes
    // (UDF, schema) without a network.
    if (dryRun == null) Preflight.storeOpens(settings.store());
    List<String> placeholders = dryRun == null ? List.of() : DataflowDryRun.prepare(options, dryRun);
    Pipeline pipeline = Pipeline.create(options);
    IngestPipeline.build(pipeline, settings,
        from != null ? from : IngestPipeline.kafka(settings, options.as(RunnerOptions.class).getKafkaReader().on(isDataflow())));
    if (dryRun == null && from == null) kafkaReady(settings);
    if (dryRun != null) {
      DataflowDryRun.writeJob(pipeline);
      System.out.println("wrote the Dataflow job to " + dryRun + " (dry run: nothing submitted, nothing contacted)");
      if (!placeholders.isEmpty()) System.out.println("placeholders for options not given: " + String.join(" ", placeholders));
      return 0;
    }
    if (isDataflow()) {
      // the workers are Dataflow's: no in-process status; the job lives on until cancelled there
      System.out.println("submitting to Dataflow; status, metrics and logs are in the Dataflow console. Stopping this "
          + "command does not stop the job: gcloud dataflow jobs cancel JOB_ID --region=REGION");
      PipelineResult job = pipeline.run();
      // 'run --cloud=gcp' reads the id from this line to watch and cancel the job (RealDataflow)
      if (job instanceof DataflowPipelineJob j) System.out.println(DataflowService.JOB_ID_LINE + j.getJobId());
      job.waitUntilFinish();
      return 0;
    }
    printCheckpointInterval(options, write);
    // on a Flink cluster the workers are other JVMs: status from the table and Flink's REST API
    RemoteJobStatus remote = runner.onFlinkCluster() ? new RemoteJobStatus(runner.value("flinkMaster"),
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

  /**
   * The broker has the topic, and a restarted keyed write has moved its committed offsets back
   * (RestartRewind), with one client, right before the pipeline runs.
   */
  private void kafkaReady(IngestSettings settings) {
    try (Consumer<byte[], byte[]> kafka = RestartRewind.consumer(bootstrapServers, settings.consumerGroup(), brokerTimeout)) {
      Preflight.topicExists(kafka, bootstrapServers, topic, brokerTimeout);
      RestartRewind.apply(kafka, topic, RestartRewind.bufferedRowsBound(settings.write(), settings.appendBatchSize()));
    }
  }

  /** The source chosen by --source, its own flags checked. */
  private Source source() {
    if (source == SourceKind.pubsub) {
      if (bootstrapServers != null) throw new IllegalArgumentException("--source=pubsub reads --subscription, not --bootstrapServers");
      if (subscription == null) throw new IllegalArgumentException("--source=pubsub needs --subscription=projects/P/subscriptions/S");
      if (maxRecords != null || maxReadTime != null) {
        throw new IllegalArgumentException("--maxRecords and --maxReadTime bound a Kafka read; a Pub/Sub read runs until stopped");
      }
      return new PubsubSource(subscription);
    }
    if (subscription != null) throw new IllegalArgumentException("--subscription needs --source=pubsub");
    if (bootstrapServers == null) throw new IllegalArgumentException("--source=kafka needs --bootstrapServers=host:port");
    return null; // Kafka: IngestPipeline.kafka(settings, reader)
  }

  private boolean isDataflow() {
    return dryRun != null || runner.runner().startsWith("Dataflow");
  }

  /**
   * The pipeline's options: the runner's (Beam's own names), Dataflow's when the pipeline is for
   * Dataflow (a dry run always is), the ingestion's, and --beamArg's, winning.
   */
  PipelineOptions pipelineOptions() {
    List<String> dataflowArgs = runner.dataflowArgs();
    if (!isDataflow() && !dataflowArgs.isEmpty()) {
      throw new IllegalArgumentException(String.join(" ", dataflowArgs) + ": Dataflow options need "
          + "--runner=DataflowRunner (or --dryRun=FILE)");
    }
    // the ingestion's own options too, so the job carries them (a Dataflow job shows them with its own)
    List<String> extra = new ArrayList<>(BeamFlags.ingestionArgs(spec));
    extra.addAll(dataflowArgs);
    RunnerChoice c = runner.choice(extra);
    if (isDataflow()) c = new RunnerChoice("DataflowRunner", c.flinkMaster(), c.parallelism(), c.maxBundleSize(),
        c.maxBundleTimeMillis(), c.extraArgs(), c.bindAddress());
    return c.toOptions();
  }

  /** Nonsense values are refused before anything starts (exit 2). */
  private void validate() {
    runner.validate();
    Preflight.positive("--maxReadTime", maxReadTime);
    Preflight.positive("--brokerTimeout", brokerTimeout);
    if (maxRecords != null) Preflight.atLeast(java.util.Map.of("--maxRecords", maxRecords), 1);
    if (BeamFlags.options(spec, RunnerOptions.class).getKafkaReader() == KafkaReader.POLLED) {
      // its reader commits the marks finalized for it; Dataflow may finalize a mark after its reader is gone
      if (isDataflow()) throw new IllegalArgumentException("--kafkaReader=POLLED runs on Flink and the direct runner; on Dataflow use KAFKAIO");
      if (source == SourceKind.pubsub) throw new IllegalArgumentException("--kafkaReader reads Kafka, not --source=pubsub");
    }
  }

  /**
   * On Flink, the checkpoint interval the write stage set: not given, it depends on the store and
   * method (WriteStage.checkpointIntervalMs), so the log says which it is.
   */
  private static void printCheckpointInterval(PipelineOptions options, WriteOptions write) {
    if (options.getRunner() == null || !options.getRunner().getSimpleName().startsWith("Flink")) return;
    Long ms = options.as(org.apache.beam.runners.flink.FlinkPipelineOptions.class).getCheckpointingInterval();
    if (ms == null || ms <= 0) {
      System.out.println("Flink checkpoints: off");
    } else {
      System.out.println("Flink checkpoints every " + ms + " ms" + (write.getCheckpointIntervalMs() != null ? ""
          : " (--checkpointIntervalMs not given: 6000 where DuckDB's writers hold their appends, else 2000)"));
    }
  }

  /** The store; BigQueryIO retries by its own policy, so throttling and the fake quota apply to the others only. */
  private StoreSpec storeSpec(StoreOptions store, ThrottleOptions throttle) {
    StoreSpec storeSpec = StoreOptions.toSpec(store, Path.of("streamlab.duckdb"));
    if (storeSpec.kind() != StoreSpec.Kind.BIGQUERY) return storeSpec.withDecorator(ThrottleOptions.toSpec(throttle));
    if (throttle.getFakeQuota()) {
      throw new IllegalArgumentException("--fakeQuota stands in for BigQuery's quota in front of DuckDB or PostgreSQL; "
          + "with --store=bigquery the real quota applies");
    }
    return storeSpec;
  }

  /**
   * The parent ('streamlab run', see IngestProtocol) closes our stdin to stop us. Every append is
   * already durable, so exiting is safe: the JVM's shutdown hooks close the store. A mark ends
   * the current latency interval at once, so the parent can tell warm-up latencies from measured
   * ones.
   */
  private static void watchStdin(StatusReporter reporter, RemoteJobStatus remote) {
    IngestProtocol.serve(System.in, () -> {
      if (reporter != null) reporter.mark();
    }, () -> {
      if (reporter != null) reporter.close();
      if (remote != null) remote.cancel(); // the job would outlive this client on a cluster
      System.exit(0);
    });
  }
}
