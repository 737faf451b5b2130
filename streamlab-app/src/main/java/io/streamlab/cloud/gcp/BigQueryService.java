package io.streamlab.cloud.gcp;

import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.store.bigquery.BigQueryTable;
import java.util.List;

/**
 * What a {@code --cloud=gcp} run asks of BigQuery: a dataset and its tables made and removed,
 * and GoogleSQL queries (the verification's and the status counts). {@link RealBigQuery} is
 * Google's client library; tests use a named fake.
 */
public interface BigQueryService extends AutoCloseable {
  void createDataset(String project, String dataset, String location) throws Exception;

  void createTable(BigQueryTable table, TableSchema schema) throws Exception;

  /** The rows of a GoogleSQL query run in {@code project}, each row's values in column order (as text or numbers, NULL as null). */
  List<List<Object>> query(String project, String sql) throws Exception;

  /** Removes the dataset with every table in it. */
  void deleteDataset(String project, String dataset) throws Exception;

  @Override
  default void close() {}
}
