package io.streamlab.cloud.gcp;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.bigquery.BigQueryTypes;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The topic, subscription, dataset and tables of one {@code --cloud=gcp} run: created in that
 * order, and removed in the reverse order when closed, unless kept. Each step that succeeded is
 * undone, also when a later one failed or the run did; a removal that fails is printed with the
 * name to remove by hand, and the others still go ahead. The Dataflow job is not here: the
 * ingestion cancels it when it stops ({@link DataflowIngestion#close}).
 */
public final class GcpResources implements AutoCloseable {
  /**
   * The table's write time, set by BigQuery itself when a row arrives (the table's default), so
   * that latency can be read from the table as in every other store: BigQueryIO does not send it.
   */
  public static final String WRITE_TIME = "sl_write_time";

  /** An undo step: what it removes, and how. */
  private record Undo(String what, Step step) {}

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  private final GcpServices gcp;
  private final GcpPlan plan;
  private final boolean keep;
  private final PrintStream out;
  private final Deque<Undo> undo = new ArrayDeque<>();

  private GcpResources(GcpServices gcp, GcpPlan plan, boolean keep, PrintStream out) {
    this.gcp = gcp;
    this.plan = plan;
    this.keep = keep;
    this.out = out;
  }

  /**
   * Creates everything for a run whose events have {@code eventSchema}; if a step fails, what was
   * created before it is removed (unless {@code keep}) and the failure is thrown.
   */
  public static GcpResources create(GcpServices gcp, GcpPlan plan, Schema eventSchema, boolean keep, PrintStream out)
      throws Exception {
    GcpResources r = new GcpResources(gcp, plan, keep, out);
    try {
      r.make("Pub/Sub topic " + plan.topic(), () -> gcp.pubsub().createTopic(plan.topic()),
          () -> gcp.pubsub().deleteTopic(plan.topic()));
      r.make("Pub/Sub subscription " + plan.subscription(),
          () -> gcp.pubsub().createSubscription(plan.subscription(), plan.topic()),
          () -> gcp.pubsub().deleteSubscription(plan.subscription()));
      String dataset = plan.project() + ":" + plan.dataset();
      r.make("BigQuery dataset " + dataset, () -> gcp.bigQuery().createDataset(plan.project(), plan.dataset(), plan.region()),
          () -> gcp.bigQuery().deleteDataset(plan.project(), plan.dataset()));
      // the tables go with their dataset
      gcp.bigQuery().createTable(plan.table(), tableSchema(eventSchema));
      gcp.bigQuery().createTable(plan.deadLetterTable(), BigQueryTypes.tableSchema(DeadLetters.SCHEMA));
      out.println("[streamlab] created BigQuery tables " + plan.table() + ", " + plan.deadLetterTable());
    } catch (Exception e) {
      out.println("[streamlab] creating the run's resources failed: " + e.getMessage());
      r.close();
      throw e;
    }
    return r;
  }

  /** The columns BigQueryIO writes (the event's and the system columns), plus the write time BigQuery sets. */
  static TableSchema tableSchema(Schema eventSchema) {
    TableSchema s = BigQueryTypes.tableSchema(SystemColumns.tableRecordSchema(eventSchema));
    List<TableFieldSchema> fields = new ArrayList<>(s.getFields());
    fields.add(new TableFieldSchema().setName(WRITE_TIME).setType("TIMESTAMP").setMode("NULLABLE")
        .setDefaultValueExpression("CURRENT_TIMESTAMP()"));
    return new TableSchema().setFields(fields);
  }

  private void make(String what, Step create, Step remove) throws Exception {
    create.run();
    undo.push(new Undo(what, remove));
    out.println("[streamlab] created " + what);
  }

  /** Removes what was created, newest first, unless kept; every removal is tried. */
  @Override
  public void close() {
    if (keep) {
      undo.forEach(u -> out.println("[streamlab] kept (--keep) " + u.what()));
      undo.clear();
      return;
    }
    while (!undo.isEmpty()) {
      Undo u = undo.pop();
      try {
        u.step().run();
        out.println("[streamlab] removed " + u.what());
      } catch (Exception e) {
        out.println("[streamlab] could NOT remove " + u.what() + " (remove it by hand): " + e.getMessage());
      }
    }
  }
}
