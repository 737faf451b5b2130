package io.streamlab.cloud.gcp;

import com.google.api.client.googleapis.javanet.GoogleNetHttpTransport;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.Bigquery;
import com.google.api.services.bigquery.BigqueryScopes;
import com.google.api.services.bigquery.model.Dataset;
import com.google.api.services.bigquery.model.DatasetReference;
import com.google.api.services.bigquery.model.GetQueryResultsResponse;
import com.google.api.services.bigquery.model.QueryRequest;
import com.google.api.services.bigquery.model.QueryResponse;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableCell;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import com.google.auth.http.HttpCredentialsAdapter;
import com.google.auth.oauth2.GoogleCredentials;
import io.streamlab.store.bigquery.BigQueryTable;
import java.util.ArrayList;
import java.util.List;

/**
 * BigQuery through Google's API client ({@code google-api-services-bigquery}, the one BigQueryIO
 * itself uses), Application Default Credentials. Never run against the real service in this
 * project's tests (no network to Google here): see the README.
 */
final class RealBigQuery implements BigQueryService {
  private static final long QUERY_TIMEOUT_MS = 60_000;
  private final Bigquery bq;
  private final String location;

  private RealBigQuery(Bigquery bq, String location) {
    this.bq = bq;
    this.location = location;
  }

  /** @param location where the run's dataset is, and so where its queries run */
  static RealBigQuery create(String location) throws Exception {
    GoogleCredentials credentials = GoogleCredentials.getApplicationDefault().createScoped(BigqueryScopes.all());
    Bigquery bq = new Bigquery.Builder(GoogleNetHttpTransport.newTrustedTransport(), GsonFactory.getDefaultInstance(),
        new HttpCredentialsAdapter(credentials)).setApplicationName("streamlab").build();
    return new RealBigQuery(bq, location);
  }

  @Override
  public void createDataset(String project, String dataset, String location) throws Exception {
    bq.datasets().insert(project, new Dataset().setLocation(location)
        .setDatasetReference(new DatasetReference().setProjectId(project).setDatasetId(dataset))).execute();
  }

  @Override
  public void createTable(BigQueryTable table, TableSchema schema) throws Exception {
    bq.tables().insert(table.project(), table.dataset(), new Table().setSchema(schema).setTableReference(
        new TableReference().setProjectId(table.project()).setDatasetId(table.dataset()).setTableId(table.table())))
        .execute();
  }

  /** jobs.query, then its result pages (a latency query returns one row per event). */
  @Override
  public List<List<Object>> query(String project, String sql) throws Exception {
    QueryResponse first = bq.jobs().query(project, new QueryRequest().setQuery(sql).setUseLegacySql(false)
        .setLocation(location).setTimeoutMs(QUERY_TIMEOUT_MS)).execute();
    List<List<Object>> rows = new ArrayList<>();
    String jobId = first.getJobReference().getJobId();
    boolean complete = Boolean.TRUE.equals(first.getJobComplete());
    if (complete) add(rows, first.getRows());
    String page = complete ? first.getPageToken() : null;
    while (!complete || page != null) {
      GetQueryResultsResponse r = bq.jobs().getQueryResults(project, jobId).setLocation(location)
          .setPageToken(page).setTimeoutMs(QUERY_TIMEOUT_MS).execute();
      if (!Boolean.TRUE.equals(r.getJobComplete())) continue;
      complete = true;
      add(rows, r.getRows());
      page = r.getPageToken();
    }
    return rows;
  }

  private static void add(List<List<Object>> rows, List<TableRow> page) {
    if (page == null) return;
    for (TableRow r : page) {
      List<Object> values = new ArrayList<>();
      for (TableCell c : r.getF()) values.add(c.getV() instanceof String s ? s : null); // NULL comes as a non-string
      rows.add(values);
    }
  }

  @Override
  public void deleteDataset(String project, String dataset) throws Exception {
    bq.datasets().delete(project, dataset).setDeleteContents(true).execute();
  }
}
