package io.streamlab.store;

import io.streamlab.store.duckdb.DuckDbStore;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where the table lives, in a form that travels with a Beam DoFn to its workers and opens the
 * store there. DuckDB is the embedded default; other stores join this switch.
 */
public record StoreSpec(Kind kind, String location, StoreDecorator decorator) implements Serializable {
  public enum Kind { DUCKDB }

  /** A plain store, without decoration. */
  public StoreSpec(Kind kind, String location) {
    this(kind, location, null);
  }

  public static StoreSpec duckdb(Path file) {
    return new StoreSpec(Kind.DUCKDB, file.toAbsolutePath().toString());
  }

  /** The same store with this decorator applied where it is opened (null = none). */
  public StoreSpec withDecorator(StoreDecorator d) {
    return new StoreSpec(kind, location, d);
  }

  /** The same store without decoration (verification reads the table as it is). */
  public StoreSpec undecorated() {
    return withDecorator(null);
  }

  /** Opens the store, decorated if the spec says so. */
  public TableStore open() {
    TableStore store = switch (kind) {
      case DUCKDB -> new DuckDbStore(Path.of(location));
    };
    return decorator == null ? store : decorator.decorate(store, toString());
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase() + ":" + location;
  }
}
