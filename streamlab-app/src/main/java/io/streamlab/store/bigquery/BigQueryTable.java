package io.streamlab.store.bigquery;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A BigQuery table named as {@code --outputTable} names it: {@code project:dataset.table}, the
 * form BigQueryIO's {@code to(String)} takes. The dead letters go to {@code <table>_failed} in
 * the same dataset, as in every other store.
 */
public record BigQueryTable(String project, String dataset, String table) implements Serializable {
  // project ids may carry a domain ("example.com:proj"); datasets and tables are letters, digits, _
  private static final Pattern SPEC = Pattern.compile("([a-z0-9.:-]+):(\\w+)\\.([\\w$-]+)");

  /** @throws IllegalArgumentException saying what the flag should look like */
  public static BigQueryTable parse(String spec) {
    Matcher m = spec == null ? null : SPEC.matcher(spec);
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException("--outputTable must be PROJECT:DATASET.TABLE (e.g. my-project:streamlab.events), got: " + spec);
    }
    return new BigQueryTable(m.group(1), m.group(2), m.group(3));
  }

  /** Another table of the same dataset (the dead letters' {@code <table>_failed}). */
  public BigQueryTable sibling(String name) {
    return new BigQueryTable(project, dataset, name);
  }

  /** PROJECT:DATASET.TABLE, as BigQueryIO.Write.to(String) takes it. */
  public String spec() {
    return project + ":" + dataset + "." + table;
  }

  @Override
  public String toString() {
    return spec();
  }
}
