package io.streamlab.cloud.gcp;

import java.util.ArrayList;
import java.util.List;

/** What a test's fakes were asked to do, in order: the create / verify / clean-up sequence of a cloud run. */
public final class CallLog {
  private final List<String> calls = new ArrayList<>();
  private final List<String> queries = new ArrayList<>();

  public synchronized void add(String call) {
    calls.add(call);
  }

  synchronized void addQuery(String sql) {
    queries.add(sql);
  }

  /** Every call but the queries, in order. */
  public synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  public synchronized List<String> queries() {
    return List.copyOf(queries);
  }
}
