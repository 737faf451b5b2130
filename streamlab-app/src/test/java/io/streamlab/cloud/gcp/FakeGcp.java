package io.streamlab.cloud.gcp;

import java.sql.SQLException;
import java.util.List;

/** The three FAKE services of a test, sharing one call log, and what they still hold. */
public final class FakeGcp implements AutoCloseable {
  private final CallLog log = new CallLog();
  private final FakePubsub pubsub = new FakePubsub(log);
  private final FakeBigQuery bigQuery;
  private final FakeDataflow dataflow;

  public FakeGcp() throws SQLException {
    bigQuery = new FakeBigQuery(log);
    dataflow = new FakeDataflow(log, pubsub, bigQuery);
  }

  public GcpServices services() {
    return new GcpServices(pubsub, bigQuery, dataflow);
  }

  public CallLog log() {
    return log;
  }

  public FakeDataflow dataflow() {
    return dataflow;
  }

  public FakeBigQuery bigQuery() {
    return bigQuery;
  }

  /** Topics, subscriptions and datasets that exist. */
  public int resourcesLeft() throws SQLException {
    return pubsub.resources() + bigQuery.datasets().size();
  }

  /** Each call's verb ("pubsub.createTopic"), in order, without its arguments. */
  public static List<String> verbs(CallLog log) {
    return log.calls().stream().map(c -> c.split(" ")[0]).toList();
  }

  @Override
  public void close() {
    bigQuery.shutdown();
  }
}
