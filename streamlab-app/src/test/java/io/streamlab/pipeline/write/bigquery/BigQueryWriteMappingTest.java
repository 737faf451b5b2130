package io.streamlab.pipeline.write.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.ErrorProto;
import com.google.api.services.bigquery.model.TableDataInsertAllResponse;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.pipeline.write.WriteStage;
import io.streamlab.pipeline.write.WriteTarget;
import io.streamlab.pipeline.RowsWithDeadLetters;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.bigquery.BigQueryTypes;
import io.streamlab.testing.ExampleSchemas;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.bigquery.WriteProbe;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flag mapping of --store=bigquery, read back from the pipeline: the ingestion's write stage is
 * built (not run: BigQuery is not reachable here) for every write method x formatToStore, and the
 * BigQueryIO.Write transforms found in the pipeline graph, and the pipeline's BigQueryOptions, must
 * carry the flags. Every setting is a non-default value, so a flag that is not passed on fails.
 */
class BigQueryWriteMappingTest {
  static final Schema ROW_EVENT = ExampleSchemas.load(ExampleSchemas.COMPOUND_AVRO);
  static final Schema ROW = SystemColumns.tableRecordSchema(ROW_EVENT);
  static final String TABLE = "my-proj:lab.events";

  static List<Arguments> methodsAndFormats() {
    List<Arguments> a = new java.util.ArrayList<>();
    for (WriteMethod m : WriteMethod.values()) {
      for (FormatToStore f : FormatToStore.values()) {
        if (f != FormatToStore.STORE_ROW) a.add(Arguments.of(m, f)); // PostgreSQL's rows: refused for BigQuery (IngestSettings)
      }
    }
    return a;
  }

  static WriteSettings settings(WriteMethod m, FormatToStore f, boolean autoSharding) {
    boolean pool = m == WriteMethod.STORAGE_API_AT_LEAST_ONCE;
    return new WriteSettings(m, f, 512, autoSharding, 250, 32_768, 7, 2.5, pool, 3, 2_000);
  }

  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("methodsAndFormats")
  void everyMethodAndFormatIsMappedOntoBigQueryIO(WriteMethod m, FormatToStore f) {
    Pipeline p = Pipeline.create(PipelineOptionsFactory.create());
    Map<String, WriteProbe> writes = build(p, settings(m, f, false), true);
    assertEquals(2, writes.size(), "the rows' write and the dead letters' write: " + writes.keySet());
    WriteProbe rows = writes.get("rows");
    WriteProbe letters = writes.get("deadLetters");

    assertTrue(rows.table().contains("\"projectId\":\"my-proj\"") && rows.table().contains("\"tableId\":\"events\""),
        rows.table());
    assertTrue(letters.table().contains("\"datasetId\":\"lab\"") && letters.table().contains("\"tableId\":\"events_failed\""),
        letters.table());
    for (WriteProbe w : writes.values()) {
      assertEquals(m.name(), w.method().name());
      assertEquals(BigQueryIO.Write.CreateDisposition.CREATE_IF_NEEDED, w.createDisposition());
      assertEquals(BigQueryIO.Write.WriteDisposition.WRITE_APPEND, w.writeDisposition());
      assertFalse(w.autoSharding());
      if (m != WriteMethod.STREAMING_INSERTS || w == letters) assertNull(w.insertId(element(f)));
      switch (m) {
        case STREAMING_INSERTS -> {
          assertTrue(w.extendedErrorInfo(), "failed inserts need their error for the dead letters");
          if (w == rows) assertEquals("3:17", rows.insertId(element(f)), "the event identity as insert id");
          assertFalse(retries(w.failedInsertRetryPolicy(), "invalid"), "a refused row must reach the dead letters");
          assertTrue(retries(w.failedInsertRetryPolicy(), "backendError"));
          assertNull(w.triggeringFrequency());
        }
        case STORAGE_WRITE_API -> {
          assertEquals(Duration.millis(2_500), w.triggeringFrequency());
          assertEquals(7, w.numStorageWriteApiStreams());
        }
        case STORAGE_API_AT_LEAST_ONCE -> {
          assertNull(w.triggeringFrequency());
          assertEquals(0, w.numStorageWriteApiStreams());
        }
      }
    }

    // the element written, and the table schema it is created with
    String translated = BigQueryHelpers.toJsonString(BigQueryTypes.tableSchema(ROW));
    switch (f) {
      case TABLE_ROW -> {
        assertTrue(rows.hasTableRowFormatFunction());
        assertFalse(rows.hasAvroFormatFunction());
        assertEquals(translated, rows.jsonSchema());
      }
      case BEAM_ROW -> { // compound_event has a fixed, which BigQueryIO cannot write from a Row (see below)
        assertFalse(rows.useBeamSchema());
        assertTrue(rows.hasTableRowFormatFunction());
        assertEquals(translated, rows.jsonSchema());
      }
      case AVRO_GENERIC_RECORD -> {
        boolean json = m == WriteMethod.STREAMING_INSERTS; // BigQueryIO: no Avro for streaming inserts
        assertEquals(json, rows.hasTableRowFormatFunction());
        assertEquals(!json, rows.hasAvroFormatFunction());
        assertEquals(translated, rows.jsonSchema());
      }
    }
    assertFalse(rows.useBeamSchema());
    assertEquals(BigQueryHelpers.toJsonString(BigQueryTypes.tableSchema(DeadLetters.SCHEMA)), letters.jsonSchema());

    BigQueryOptions o = p.getOptions().as(BigQueryOptions.class);
    assertEquals(512, o.getNumStreamingKeys());
    assertEquals(250L, o.getMaxStreamingRowsToBatch());
    assertEquals(32_768L, o.getMaxStreamingBatchSize());
    boolean pool = m == WriteMethod.STORAGE_API_AT_LEAST_ONCE;
    assertEquals(pool, o.getUseStorageApiConnectionPool());
    assertEquals(pool ? 3 : 2, o.getMinConnectionPoolConnections());
    assertEquals(pool ? 3 : 20, o.getMaxConnectionPoolConnections());
  }

  /** Rows without a type BigQueryIO cannot write from a Row (message_schema.json: enum, bytes, map) go with useBeamSchema(). */
  @Test
  void beamRowsUseBeamSchemaWhenBigQueryIoCanWriteThem() {
    Schema message = SystemColumns.tableRecordSchema(ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON));
    for (WriteMethod m : WriteMethod.values()) {
      WriteProbe rows = build(Pipeline.create(PipelineOptionsFactory.create()), settings(m, FormatToStore.BEAM_ROW, false),
          true, message).get("rows");
      assertTrue(rows.useBeamSchema(), m.name());
      assertFalse(rows.hasTableRowFormatFunction(), m.name());
      assertNull(rows.jsonSchema(), "the schema is Beam's, from the Row schema (BigQueryTypesTest: the same columns)");
    }
  }

  @Test
  void autoShardingReachesStreamingInsertsAndStorageWriteApi() {
    for (WriteMethod m : List.of(WriteMethod.STREAMING_INSERTS, WriteMethod.STORAGE_WRITE_API)) {
      Map<String, WriteProbe> writes =
          build(Pipeline.create(PipelineOptionsFactory.create()), settings(m, FormatToStore.AVRO_GENERIC_RECORD, true), true);
      assertTrue(writes.get("rows").autoSharding(), m.name());
      assertTrue(writes.get("deadLetters").autoSharding(), m.name());
    }
  }

  @Test
  void fractionalTriggeringFrequencyKeepsItsMilliseconds() {
    WriteSettings w = new WriteSettings(WriteMethod.STORAGE_WRITE_API, FormatToStore.BEAM_ROW, 50, false, 500, 65_536, 0,
        0.25, false, 2, 2_000);
    WriteProbe rows = build(Pipeline.create(PipelineOptionsFactory.create()), w, true).get("rows");
    assertEquals(Duration.millis(250), rows.triggeringFrequency());
    assertEquals(0, rows.numStorageWriteApiStreams(), "0 = BigQueryIO's auto-sharding, as streamlab's");
  }

  /** --maxRecords / --maxReadTime make the read bounded: BigQueryIO refuses a triggering frequency and auto-sharding there. */
  @Test
  void boundedIngestionLeavesOutTriggeringAndAutoSharding() {
    Map<String, WriteProbe> writes = build(Pipeline.create(PipelineOptionsFactory.create()),
        settings(WriteMethod.STORAGE_WRITE_API, FormatToStore.TABLE_ROW, true), false);
    for (WriteProbe w : writes.values()) {
      assertNull(w.triggeringFrequency());
      assertFalse(w.autoSharding());
      assertEquals(7, w.numStorageWriteApiStreams());
    }
  }

  /** Builds the ingestion's write stage into {@code p} and returns its BigQueryIO writes: "rows", "deadLetters". */
  static Map<String, WriteProbe> build(Pipeline p, WriteSettings w, boolean unbounded) {
    return build(p, w, unbounded, ROW);
  }

  static Map<String, WriteProbe> build(Pipeline p, WriteSettings w, boolean unbounded, Schema row) {
    PCollection<GenericRecord> rows = p.apply("Rows", Create.empty(AvroCoder.of(row)));
    PCollection<GenericRecord> letters = p.apply("FrontDeadLetters", Create.empty(AvroCoder.of(DeadLetters.SCHEMA)));
    if (unbounded) {
      rows.setIsBoundedInternal(PCollection.IsBounded.UNBOUNDED);
      letters.setIsBoundedInternal(PCollection.IsBounded.UNBOUNDED);
    }
    StoreSpec store = StoreSpec.bigquery(TABLE);
    WriteStage.configure(p.getOptions(), store, w);
    RowsWithDeadLetters.of(rows, letters).apply("Write", WriteStage.of(new WriteTarget(store, "not-used", row, 500), w));
    Map<String, WriteProbe> found = new LinkedHashMap<>();
    p.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
      @Override
      public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
        if (node.getTransform() instanceof BigQueryIO.Write<?> write) {
          found.put(node.getFullName().contains("DeadLetters") ? "deadLetters" : "rows", new WriteProbe(write));
        }
        return CompositeBehavior.ENTER_TRANSFORM;
      }
    });
    return found;
  }

  /** A row of producer 3, sequence 17, as the write stage hands it to BigQueryIO for {@code f}. */
  private static Object element(FormatToStore f) {
    GenericRecord event = new io.streamlab.generator.RandomRecordFactory(ROW_EVENT,
        io.streamlab.generator.GeneratorSettings.builder().build(), 1).next();
    GenericRecord r = SystemColumns.tableRecord(ROW, event, 3, 17, 0);
    return switch (f) {
      case TABLE_ROW -> io.streamlab.store.bigquery.BigQueryValues.toTableRow(r);
      case BEAM_ROW, AVRO_GENERIC_RECORD, STORE_ROW -> f.fromRecord(r);
    };
  }

  private static boolean retries(InsertRetryPolicy policy, String reason) {
    return policy.shouldRetry(new InsertRetryPolicy.Context(
        new TableDataInsertAllResponse.InsertErrors().setErrors(List.of(new ErrorProto().setReason(reason)))));
  }
}
