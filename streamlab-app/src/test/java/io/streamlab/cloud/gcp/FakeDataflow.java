package io.streamlab.cloud.gcp;

import io.streamlab.formats.EventHeaders;
import io.streamlab.store.bigquery.BigQueryTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A FAKE of Dataflow for tests: a submitted job is a thread that moves each message of the
 * subscription named in its flags into the table of its {@code --outputTable} (system columns
 * only), through the fake BigQuery. It can be told to lose messages, so that a run's verdict is
 * seen to catch a loss (duplicates: FakeBigQueryVerificationTest). It runs no Beam pipeline: what it checks is the run
 * around the job (flags, order, verification, clean-up), not the job.
 */
public final class FakeDataflow implements DataflowService {
  private final CallLog calls;
  private final FakePubsub pubsub;
  private final FakeBigQuery bigQuery;
  private volatile int loseEvery;
  private volatile boolean failSubmit;
  private volatile List<String> lastArgs;

  public FakeDataflow(CallLog calls, FakePubsub pubsub, FakeBigQuery bigQuery) {
    this.calls = calls;
    this.pubsub = pubsub;
    this.bigQuery = bigQuery;
  }

  /** Drop every n-th message. */
  public void loseEvery(int n) {
    loseEvery = n;
  }

  /** Refuse the submission (tests of the clean-up). */
  public void failSubmit() {
    failSubmit = true;
  }

  /** The flags of the last job submitted. */
  public List<String> lastArgs() {
    return lastArgs;
  }

  @Override
  public Job submit(String jobName, List<String> ingestArgs, Path log) {
    calls.add("dataflow.submit " + jobName);
    lastArgs = List.copyOf(ingestArgs);
    if (failSubmit) throw new IllegalStateException("FAKE: job submission refused");
    String subscription = flag(ingestArgs, "--subscription=");
    BigQueryTable table = BigQueryTable.parse(flag(ingestArgs, "--outputTable="));
    FakeJob job = new FakeJob(jobName, subscription, table);
    job.thread.start();
    return job;
  }

  private static String flag(List<String> args, String prefix) {
    return args.stream().filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("FAKE: the job has no " + prefix + " in " + args));
  }

  private final class FakeJob implements Job {
    private final String id;
    private final Thread thread;
    private final long started = System.nanoTime();
    private volatile boolean cancelled;
    private volatile String state = "JOB_STATE_RUNNING";

    FakeJob(String id, String subscription, BigQueryTable table) {
      this.id = id;
      this.thread = new Thread(() -> {
        long n = 0;
        try {
          while (!cancelled) {
            EventHeaders.Stamp s = pubsub.pull(subscription);
            if (s == null) {
              Thread.sleep(20);
              continue;
            }
            n++;
            if (loseEvery > 0 && n % loseEvery == 0) continue;
            bigQuery.insert(table.dataset(), table.table(), s.producerId(), s.sequence(), s.sendTimeMicros());
          }
        } catch (Exception e) {
          state = "JOB_STATE_FAILED";
        }
      }, "fake-dataflow-" + id);
      thread.setDaemon(true);
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public String state() {
      return state;
    }

    @Override
    public boolean workersUp() {
      return thread.isAlive();
    }

    /** Wall time as one vCPU's: a fake has no workers to measure. */
    @Override
    public Duration vcpuTime() {
      return Duration.ofNanos(System.nanoTime() - started);
    }

    @Override
    public void cancel(Duration timeout) throws InterruptedException {
      calls.add("dataflow.cancel " + id);
      cancelled = true;
      thread.join(timeout.toMillis());
      state = "JOB_STATE_CANCELLED";
    }
  }
}
