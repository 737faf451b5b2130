package io.streamlab.store;

import io.streamlab.store.bigquery.BigQueryTable;
import io.streamlab.store.duckdb.DuckDbStore;
import io.streamlab.store.postgres.PostgresStore;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * Where the table lives, in a form that travels with a Beam DoFn to its workers and opens the
 * store there. DuckDB is the embedded default; other stores join this switch. BigQuery is the
 * exception: Beam's BigQueryIO writes it (the write stage switches on the kind), so it is never
 * opened as a {@link TableStore} here, and streamlab cannot read it back.
 *
 * @param location DuckDB: the file; PostgreSQL: the JDBC URL (without password); BigQuery:
 *     PROJECT:DATASET.TABLE (credentials: Application Default Credentials, never here)
 * @param passwordFile PostgreSQL: a file holding the password (null: the environment variable
 *     STREAMLAB_PG_PASSWORD or PGPASSWORD, else none). Only the path travels, never the password.
 * @param decorator applied where the store is opened (throttling, a fake quota); null = none
 */
public record StoreSpec(Kind kind, String location, String passwordFile, StoreDecorator decorator)
    implements Serializable {
  public enum Kind { DUCKDB, POSTGRES, BIGQUERY }

  /** A plain store, without password file or decoration. */
  public StoreSpec(Kind kind, String location) {
    this(kind, location, null, null);
  }

  public static StoreSpec duckdb(Path file) {
    return new StoreSpec(Kind.DUCKDB, file.toAbsolutePath().toString());
  }

  public static StoreSpec postgres(String jdbcUrl, Path passwordFile) {
    // Refused, not redacted: a URL with a password would end up in command lines of child
    // processes, Flink's job graph and results.json. The message does not repeat the URL.
    if (JdbcUrls.hasCredentials(jdbcUrl)) {
      throw new IllegalArgumentException("--jdbcUrl must not carry the password or any user-info (it would be "
          + "logged; the URL is not repeated here): put the user in ?user=NAME and the password in --passwordFile "
          + "or the environment variable STREAMLAB_PG_PASSWORD");
    }
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("--jdbcUrl must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db), got: "
          + JdbcUrls.mask(jdbcUrl));
    }
    return new StoreSpec(Kind.POSTGRES, jdbcUrl, passwordFile == null ? null : passwordFile.toAbsolutePath().toString(),
        null);
  }

  /** @param outputTable PROJECT:DATASET.TABLE */
  public static StoreSpec bigquery(String outputTable) {
    return new StoreSpec(Kind.BIGQUERY, BigQueryTable.parse(outputTable).spec());
  }

  /** The same store with this decorator applied where it is opened (null = none). */
  public StoreSpec withDecorator(StoreDecorator d) {
    return new StoreSpec(kind, location, passwordFile, d);
  }

  /** The same store without decoration (verification reads the table as it is). */
  public StoreSpec undecorated() {
    return withDecorator(null);
  }

  /** Opens the store, decorated if the spec says so. */
  public TableStore open() {
    TableStore store = switch (kind) {
      case DUCKDB -> new DuckDbStore(Path.of(location));
      case POSTGRES -> new PostgresStore(location, passwordFile == null ? null : Path.of(passwordFile));
      case BIGQUERY -> throw new UnsupportedOperationException("BigQuery (" + location + ") is written by BigQueryIO "
          + "and cannot be opened or read back as a table store here");
    };
    return decorator == null ? store : decorator.decorate(store, toString());
  }

  @Override
  public String toString() {
    return kind.name().toLowerCase() + ":" + JdbcUrls.mask(location);
  }
}
