package io.streamlab.cli;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.bigquery.BigQueryTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which table store. Shared by ingest and run. */
final class StoreOptions {
  enum Store { duckdb, postgres, bigquery }

  @Option(names = "--store", defaultValue = "duckdb",
      description = "Table store: duckdb (embedded file, --db), postgres (--jdbcUrl; binary COPY) or bigquery "
          + "(--outputTable; written by Beam's BigQueryIO with the --writeMethod of the same name; ingest only). "
          + "Default: ${DEFAULT-VALUE}.")
  Store store;

  @Option(names = "--outputTable", paramLabel = "PROJECT:DATASET.TABLE",
      description = "BigQuery: the table, created if needed (dead letters: PROJECT:DATASET.TABLE_failed); replaces "
          + "--table. Credentials: Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS or gcloud's), "
          + "never a flag.")
  String outputTable;

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
        if (outputTable != null) throw new IllegalArgumentException("--outputTable needs --store=bigquery");
        yield StoreSpec.duckdb(db != null ? db : defaultDb);
      }
      case postgres -> {
        if (jdbcUrl == null) throw new IllegalArgumentException("--store=postgres needs --jdbcUrl=jdbc:postgresql://host:port/db");
        if (outputTable != null) throw new IllegalArgumentException("--outputTable needs --store=bigquery");
        yield StoreSpec.postgres(jdbcUrl, passwordFile);
      }
      case bigquery -> {
        if (outputTable == null) throw new IllegalArgumentException("--store=bigquery needs --outputTable=PROJECT:DATASET.TABLE");
        if (jdbcUrl != null || db != null) throw new IllegalArgumentException("--store=bigquery takes --outputTable, not --db or --jdbcUrl");
        yield StoreSpec.bigquery(outputTable);
      }
    };
  }

  /** The table the ingestion writes: --outputTable's for BigQuery, else {@code table} (--table). */
  String table(String table) {
    return store == Store.bigquery && outputTable != null ? BigQueryTable.parse(outputTable).table() : table;
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
      case BIGQUERY -> {
        a.add("--store=bigquery");
        a.add("--outputTable=" + spec.location());
      }
    }
    return a;
  }
}
