package io.streamlab.store.model;

import io.streamlab.store.StoreDecorator;
import io.streamlab.store.TableStore;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A MODEL of a remote warehouse's request round trips, put in front of a local store (DuckDB,
 * PostgreSQL) that answers in microseconds: every request (a streaming insert, an append, the
 * commit of an exactly-once batch) first waits a round trip drawn from a log-normal distribution
 * fitted to a median and a 95th percentile. The wait blocks only the thread that sent the
 * request, so what the round trips cost a pipeline depends on how many requests it keeps in
 * flight: keys, shards, connections. Nothing else of the warehouse is modelled here (quotas are
 * {@link io.streamlab.store.quota.FakeQuotaStore}).
 *
 * @param name what is modelled, e.g. "bigquery"
 * @param p50Millis median round trip
 * @param p95Millis 95th percentile round trip (≥ the median)
 */
public record WarehouseModel(String name, double p50Millis, double p95Millis) implements StoreDecorator {
  /** BigQuery {@code insertAll} round trips as given in issue 13 (see README, "Warehouse model"). */
  public static final double BIGQUERY_P50_MILLIS = 75;
  public static final double BIGQUERY_P95_MILLIS = 110;
  /** z of the 95th percentile of a standard normal. */
  private static final double Z95 = 1.6448536269514722;

  public WarehouseModel {
    if (!(p50Millis > 0)) throw new IllegalArgumentException("--roundTripP50 must be positive, got " + p50Millis + " ms");
    if (p95Millis < p50Millis) {
      throw new IllegalArgumentException("--roundTripP95 (" + p95Millis + " ms) must be at least --roundTripP50 ("
          + p50Millis + " ms)");
    }
  }

  /** The BigQuery model with these percentiles. */
  public static WarehouseModel bigquery(double p50Millis, double p95Millis) {
    return new WarehouseModel("bigquery", p50Millis, p95Millis);
  }

  /** @return one round trip in nanoseconds */
  public long drawNanos() {
    double mu = Math.log(p50Millis);
    double sigma = (Math.log(p95Millis) - mu) / Z95;
    double millis = Math.exp(mu + sigma * ThreadLocalRandom.current().nextGaussian());
    return Math.round(millis * 1e6);
  }

  @Override
  public TableStore decorate(TableStore store, String storeId) {
    return new RoundTripStore(store, this, storeId);
  }

  /** One line for summaries: what is modelled and with which parameters. */
  public String describe() {
    return String.format("%s MODEL: every request waits a log-normal round trip, p50 %.0f ms, p95 %.0f ms "
        + "(exactly-once batches: append + commit = 2 requests; "
        + "requests that reach the store together share one local transaction, written during the round trip)", name, p50Millis, p95Millis);
  }
}
