package io.streamlab.cli;

import io.streamlab.store.StoreSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which table store. Shared by ingest and run. */
final class StoreOptions {
  enum Store { duckdb, postgres }

  @Option(names = "--store", defaultValue = "duckdb",
      description = "Table store: duckdb (embedded file, --db) or postgres (--jdbcUrl; binary COPY). "
          + "Default: ${DEFAULT-VALUE}.")
  Store store;

  @Option(names = "--db", paramLabel = "FILE",
      description = "DuckDB file of the table. Default: streamlab.duckdb (ingest) or the run directory's (run).")
  Path db;

  @Option(names = "--jdbcUrl",
      description = "PostgreSQL: jdbc:postgresql://host:port/db[?currentSchema=s], without password.")
  String jdbcUrl;

  @Option(names = "--passwordFile", paramLabel = "FILE",
      description = "PostgreSQL: file holding the password. Default: the environment variable "
          + "STREAMLAB_PG_PASSWORD or PGPASSWORD, else none.")
  Path passwordFile;

  /** @param defaultDb the DuckDB file when --db is not given */
  StoreSpec toSpec(Path defaultDb) {
    return switch (store) {
      case duckdb -> {
        if (jdbcUrl != null) throw new IllegalArgumentException("--jdbcUrl needs --store=postgres");
        yield StoreSpec.duckdb(db != null ? db : defaultDb);
      }
      case postgres -> {
        if (jdbcUrl == null) throw new IllegalArgumentException("--store=postgres needs --jdbcUrl=jdbc:postgresql://host:port/db");
        yield StoreSpec.postgres(jdbcUrl, passwordFile);
      }
    };
  }

  /** The flags naming {@code spec}, for a child process. */
  static List<String> asArgs(StoreSpec spec) {
    List<String> a = new ArrayList<>();
    switch (spec.kind()) {
      case DUCKDB -> a.add("--db=" + spec.location());
      case POSTGRES -> {
        a.add("--store=postgres");
        a.add("--jdbcUrl=" + spec.location());
        if (spec.passwordFile() != null) a.add("--passwordFile=" + spec.passwordFile());
      }
    }
    return a;
  }
}
