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
}
