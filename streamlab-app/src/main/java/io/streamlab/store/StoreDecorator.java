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
  }
}
