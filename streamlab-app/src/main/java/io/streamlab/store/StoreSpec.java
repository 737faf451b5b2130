package io.streamlab.store;

import io.streamlab.store.duckdb.DuckDbStore;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where the table lives, in a form that travels with a Beam DoFn to its workers and opens the
 * store there. DuckDB is the embedded default; other stores join this switch.
 */
public record StoreSpec(Kind kind, String location) implements Serializable {
  public enum Kind { DUCKDB }

  public static StoreSpec duckdb(Path file) {
    return new StoreSpec(Kind.DUCKDB, file.toAbsolutePath().toString());
  }

  public TableStore open() {
    return switch (kind) {
      case DUCKDB -> new DuckDbStore(Path.of(location));
    };
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase() + ":" + location;
  }
}
