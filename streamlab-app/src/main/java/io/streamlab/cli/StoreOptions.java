package io.streamlab.cli;

import io.streamlab.store.StoreSpec;
import io.streamlab.store.bigquery.BigQueryTable;
import java.nio.file.Path;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** Which table store. Shared by ingest and run. */
public interface StoreOptions extends PipelineOptions {
  enum Store { duckdb, postgres, bigquery }

  @Description("Table store: duckdb (embedded file, --db), postgres (--jdbcUrl; binary COPY) or bigquery "
      + "(--outputTable; written by Beam's BigQueryIO with the --writeMethod of the same name; ingest only).")
  @Default.Enum("duckdb")
  Store getStore();
  void setStore(Store value);

  @Description("BigQuery: the table, PROJECT:DATASET.TABLE, created if needed (dead letters: "
      + "PROJECT:DATASET.TABLE_failed); replaces --table. Credentials: Application Default Credentials "
      + "(GOOGLE_APPLICATION_CREDENTIALS or gcloud's), never a flag.")
  String getOutputTable();
  void setOutputTable(String value);

  @Description("DuckDB file of the table. Default: streamlab.duckdb (ingest) or the run directory's (run).")
  String getDb();
  void setDb(String value);

  @Description("PostgreSQL: jdbc:postgresql://host:port/db[?currentSchema=s], without password.")
  String getJdbcUrl();
  void setJdbcUrl(String value);

  @Description("PostgreSQL: file holding the password. Default: the environment variable STREAMLAB_PG_PASSWORD or "
      + "PGPASSWORD, else none.")
  String getPasswordFile();
  void setPasswordFile(String value);

  /** @param defaultDb the DuckDB file when --db is not given */
  static StoreSpec toSpec(StoreOptions o, Path defaultDb) {
    return switch (o.getStore()) {
      case duckdb -> {
        if (o.getJdbcUrl() != null) throw new IllegalArgumentException("--jdbcUrl needs --store=postgres");
        if (o.getOutputTable() != null) throw new IllegalArgumentException("--outputTable needs --store=bigquery");
        yield StoreSpec.duckdb(o.getDb() != null ? Path.of(o.getDb()) : defaultDb);
      }
      case postgres -> {
        if (o.getJdbcUrl() == null) {
          throw new IllegalArgumentException("--store=postgres needs --jdbcUrl=jdbc:postgresql://host:port/db");
        }
        if (o.getOutputTable() != null) throw new IllegalArgumentException("--outputTable needs --store=bigquery");
        yield StoreSpec.postgres(o.getJdbcUrl(), o.getPasswordFile() == null ? null : Path.of(o.getPasswordFile()));
      }
      case bigquery -> {
        if (o.getOutputTable() == null) {
          throw new IllegalArgumentException("--store=bigquery needs --outputTable=PROJECT:DATASET.TABLE");
        }
        if (o.getJdbcUrl() != null || o.getDb() != null) {
          throw new IllegalArgumentException("--store=bigquery takes --outputTable, not --db or --jdbcUrl");
        }
        yield StoreSpec.bigquery(o.getOutputTable());
      }
    };
  }

  /** The table the ingestion writes: --outputTable's for BigQuery, else {@code table} (--table). */
  static String table(StoreOptions o, String table) {
    return o.getStore() == Store.bigquery && o.getOutputTable() != null
        ? BigQueryTable.parse(o.getOutputTable()).table() : table;
  }

  /** The options naming {@code spec} (a run's store, chosen by the run), e.g. for its ingestion child. */
  static StoreOptions of(StoreSpec spec) {
    StoreOptions o = PipelineOptionsFactory.as(StoreOptions.class);
    switch (spec.kind()) {
      case DUCKDB -> o.setDb(spec.location());
      case POSTGRES -> {
        o.setStore(Store.postgres);
        o.setJdbcUrl(spec.location());
        if (spec.passwordFile() != null) o.setPasswordFile(spec.passwordFile());
      }
      case BIGQUERY -> {
        o.setStore(Store.bigquery);
        o.setOutputTable(spec.location());
      }
    }
    return o;
  }
}
