package io.streamlab.store.throttle;

import io.streamlab.store.JvmShared;
import io.streamlab.store.StoreDecorator;
import io.streamlab.store.TableStore;
import io.streamlab.store.quota.FakeQuotaStore;
import io.streamlab.store.quota.QuotaLimits;

/**
 * How the pipeline's writers throttle, as a {@link StoreDecorator} carried in the StoreSpec, so
 * it is applied wherever a worker opens the store, whatever the write method.
 *
 * @param strategy what to wait for and what to retry
 * @param pool the threads that send one table's requests
 * @param tuning backoff and adaptive knobs
 * @param quota the fake warehouse quota put in front of the store, or null for none (a real
 *     store's own limits then apply, and appends are not split into requests)
 */
public record ThrottleSpec(Strategy strategy, WriterPool pool, Tuning tuning, QuotaLimits quota)
    implements StoreDecorator {

  /** The pipeline's default strategy (its command-line name): see README, sinkbench, for why. */
  public static final String DEFAULT_STRATEGY = "shared-backoff";

  @Override
  public TableStore decorate(TableStore store, String storeId) {
    TableStore target = quota == null ? store : new FakeQuotaStore(store, storeId, quota);
    return new ThrottledTableStore(target, storeId, this);
  }

  /**
   * Only with the fake quota: every ingestion's store carries this decorator, and in front of a
   * real store its strategies act only when the store refuses a request.
   */
  @Override
  public boolean modelsWarehouse() {
    return quota != null;
  }

  /** The strategy instance of this table in this JVM (shared by all its writers). */
  ThrottlingStrategy strategyFor(String tableKey) {
    ThrottleStats stats = ThrottleStats.shared(tableKey);
    return JvmShared.get(ThrottlingStrategy.class, tableKey, () -> strategy.create(tuning, stats));
  }

  @Override
  public String toString() {
    return strategy + "/pool=" + pool;
  }
}
