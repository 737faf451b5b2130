package io.streamlab.store;

import java.io.Serializable;

/**
 * Wraps a table store where the workers open it (for example quota enforcement and throttling,
 * see io.streamlab.store.throttle.ThrottleSpec). Travels inside the {@link StoreSpec}, so every
 * write method that opens its store from the spec gets the same decoration.
 */
public interface StoreDecorator extends Serializable {
  /**
   * @param store the opened store (the decorator owns it from now on and closes it)
   * @param storeId names the store (same id, same table = same shared quota and throttle state)
   */
  TableStore decorate(TableStore store, String storeId);

  /**
   * Whether this decorator stands for a warehouse's own behaviour (its round trips, its quota):
   * a writer then sends its appends one at a time from the reading thread, as the clients it
   * models were measured doing. A decorator that only reacts to the store's refusals says false,
   * and the writer may keep an append in flight while it reads on. True unless a decorator says.
   */
  default boolean modelsWarehouse() {
    return true;
  }

  /**
   * {@code inner} applied first, then {@code outer} around it (either may be null): e.g. the
   * warehouse model inside the throttling, so a throttled request waits its round trip too.
   */
  static StoreDecorator chain(StoreDecorator inner, StoreDecorator outer) {
    if (inner == null) return outer;
    if (outer == null) return inner;
    return new Chain(inner, outer);
  }

  /** See {@link #chain}. */
  record Chain(StoreDecorator inner, StoreDecorator outer) implements StoreDecorator {
    @Override
    public TableStore decorate(TableStore store, String storeId) {
      return outer.decorate(inner.decorate(store, storeId), storeId);
    }

    @Override
    public boolean modelsWarehouse() {
      return inner.modelsWarehouse() || outer.modelsWarehouse();
    }
  }
}
