package io.streamlab.pipeline.write.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import io.streamlab.formats.EventHeaders;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.pipeline.DeadLetters;
import io.streamlab.pipeline.RowsWithDeadLetters;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.schema.SystemColumns;
import io.streamlab.store.bigquery.BigQueryTable;
import io.streamlab.store.bigquery.BigQueryTypes;
import io.streamlab.store.bigquery.BigQueryValues;
import io.streamlab.testing.ExampleSchemas;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.avro.coders.AvroCoder;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.io.gcp.testing.FakeBigQueryServices;
import org.apache.beam.sdk.io.gcp.testing.FakeDatasetService;
import org.apache.beam.sdk.io.gcp.testing.FakeJobService;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A FAKE BigQuery, not BigQuery: Create -> the ingestion's BigQuery write stage -> Beam's own
 * BigQueryIO, whose BigQuery services are Beam's in-memory fakes (FakeBigQueryServices,
 * FakeDatasetService), on the DirectRunner, for every write method x formatToStore, from a bounded
 * Create and, for every write method, from an unbounded TestStream (streaming mode: triggering
 * frequency, streams, auto-sharding). Every row must
 * arrive with equal field values (compound_event.avsc: nested records, arrays of records, maps,
 * enum, fixed, float, nullable fields, some left null), and the front stages' dead letters must
 * reach {@code events_failed}. With the Storage Write API methods the fake refuses every 7th row,
 * which must then be in {@code events_failed} with stage "write" and the fake's error, so that no
 * row is lost. (The fake's streaming-insert refusals are keyed by exact TableRow equality, so
 * streaming inserts are checked without refusals.) It proves the wiring and the value
 * conversions, not BigQuery's behaviour, throughput or quotas.
 */
class BigQueryFakeEndToEndTest {
  static final Schema COMPOUND = ExampleSchemas.load(ExampleSchemas.COMPOUND_AVRO);
  /**
   * A table of its own per case: BigQueryIO caches created tables and message converters in static
   * maps keyed by step name and table, which would carry one case's over into the next in this JVM.
   */
  static final java.util.concurrent.atomic.AtomicInteger CASES = new java.util.concurrent.atomic.AtomicInteger();
  static final int ROWS = 40;
  static final int FRONT_DEAD_LETTERS = 2;

  static List<org.junit.jupiter.params.provider.Arguments> methodsAndFormats() {
    return BigQueryWriteMappingTest.methodsAndFormats();
  }

  @ParameterizedTest(name = "{0} x {1} on the fake")
  @MethodSource("methodsAndFormats")
  void everyRowArrivesOrIsDeadLettered(WriteMethod method, FormatToStore format) throws Exception {
    writeThroughTheFake(method, format, COMPOUND);
  }

  /** Rows BigQueryIO writes itself (useBeamSchema(): message_schema.json has no fixed), straight to protos. */
  @ParameterizedTest(name = "{0} x BEAM_ROW (useBeamSchema) on the fake")
  @EnumSource(WriteMethod.class)
  void beamRowsWrittenByBigQueryIoItself(WriteMethod method) throws Exception {
    writeThroughTheFake(method, FormatToStore.BEAM_ROW, ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON));
  }

  /**
   * The ingestion's case: an unbounded read (TestStream here, Kafka there), so BigQueryIO writes in
   * streaming mode with what it only takes then: STORAGE_WRITE_API with 2 streams and a 1 s
   * triggering frequency, STREAMING_INSERTS with auto-sharding.
   */
  @ParameterizedTest(name = "{0}, streaming, on the fake")
  @EnumSource(WriteMethod.class)
  void streamingWriteOfAnUnboundedRead(WriteMethod method) throws Exception {
    WriteSettings w = new WriteSettings(method, FormatToStore.AVRO_GENERIC_RECORD, 50,
        method == WriteMethod.STREAMING_INSERTS, 500, 65_536, 2, 1.0, false, 2, 2_000);
    writeThroughTheFake(w, COMPOUND, true);
  }

  private void writeThroughTheFake(WriteMethod method, FormatToStore format, Schema event) throws Exception {
    writeThroughTheFake(WriteSettings.of(method, format), event, false);
  }

  private void writeThroughTheFake(WriteSettings w, Schema event, boolean unbounded) throws Exception {
    WriteMethod method = w.method();
    Schema row = SystemColumns.tableRecordSchema(event);
    BigQueryTable table = new BigQueryTable("my-proj", "lab", "events" + CASES.incrementAndGet());
    FakeDatasetService.setUp();
    FakeDatasetService fake = new FakeDatasetService();
    fake.createDataset(table.project(), table.dataset(), "", "", null);
    boolean refusals = method != WriteMethod.STREAMING_INSERTS;
    if (refusals) fake.setShouldFailRow((Function<TableRow, Boolean> & Serializable) BigQueryFakeEndToEndTest::refused);
    FakeBigQueryServices services = new FakeBigQueryServices().withDatasetService(fake).withJobService(new FakeJobService());

    List<GenericRecord> records = records(event, row);
    PipelineOptions options = PipelineOptionsFactory.create();
    options.as(GcpOptions.class).setProject(table.project());
    Pipeline p = Pipeline.create(options);
    PCollection<GenericRecord> input;
    if (unbounded) { // two batches, the second after the triggering frequency has passed
      input = p.apply("Rows", TestStream.create(AvroCoder.of(row))
          .addElements(records.get(0), records.subList(1, ROWS / 2).toArray(GenericRecord[]::new))
          .advanceProcessingTime(org.joda.time.Duration.standardSeconds(2))
          .addElements(records.get(ROWS / 2), records.subList(ROWS / 2 + 1, ROWS).toArray(GenericRecord[]::new))
          .advanceProcessingTime(org.joda.time.Duration.standardSeconds(2))
          .advanceWatermarkToInfinity());
    } else {
      input = p.apply("Rows", Create.of(records).withCoder(AvroCoder.of(row)));
    }
    BigQueryWrites.configureOptions(options.as(BigQueryOptions.class), w);
    RowsWithDeadLetters.of(input,
            p.apply("FrontDeadLetters", Create.of(frontDeadLetters()).withCoder(AvroCoder.of(DeadLetters.SCHEMA))))
        .apply("Write", new BigQueryWriteStage(row, table, w).withTestServices(services));
    p.run().waitUntilFinish();

    List<TableFieldSchema> columns = BigQueryTypes.tableSchema(row).getFields();
    Map<Long, Object> want = new TreeMap<>();
    for (GenericRecord r : records) {
      long seq = (Long) r.get(SystemColumns.SEQUENCE);
      if (!(refusals && seq % 7 == 3)) want.put(seq, normalize(BigQueryValues.toTableRow(r), columns));
    }
    Map<Long, Object> got = new TreeMap<>();
    for (TableRow r : fake.getAllRows(table.project(), table.dataset(), table.table())) {
      got.put(Long.parseLong(String.valueOf(r.get(SystemColumns.SEQUENCE))), normalize(r, columns));
    }
    assertEquals(want.keySet(), got.keySet(), "sequences in the table");
    assertEquals("", differences(want, got), "rows in the table, field by field");

    List<TableRow> failed = fake.getAllRows(table.project(), table.dataset(), DeadLetters.tableFor(table.table()));
    List<Long> refusedSeqs = new ArrayList<>();
    int front = 0;
    for (TableRow f : failed) {
      if ("decode".equals(f.get("stage"))) {
        front++;
        assertEquals("9", String.valueOf(f.get(SystemColumns.PRODUCER_ID)));
        continue;
      }
      assertEquals("write", f.get("stage"), String.valueOf(f));
      assertTrue(String.valueOf(f.get("error_message")).contains("Failing row"), "the fake's error: " + f);
      assertEquals("1", String.valueOf(f.get(SystemColumns.PRODUCER_ID)), "identity read back from the refused row");
      refusedSeqs.add(Long.parseLong(String.valueOf(f.get(SystemColumns.SEQUENCE))));
    }
    assertEquals(FRONT_DEAD_LETTERS, front, "front-stage dead letters in events_failed");
    refusedSeqs.sort(null);
    List<Long> wantRefused = new ArrayList<>();
    if (refusals) for (long s = 0; s < ROWS; s++) if (s % 7 == 3) wantRefused.add(s);
    assertEquals(wantRefused, refusedSeqs, "every refused row, once, in events_failed");
  }

  /** The first few differing fields, as "seq 3 field x: want .. got ..", or "" when equal. */
  @SuppressWarnings("unchecked")
  private static String differences(Map<Long, Object> want, Map<Long, Object> got) {
    StringBuilder sb = new StringBuilder();
    int shown = 0;
    for (Long seq : want.keySet()) {
      Map<String, Object> w = (Map<String, Object>) want.get(seq), g = (Map<String, Object>) got.get(seq);
      for (String field : w.keySet()) {
        if (shown < 5 && !java.util.Objects.equals(w.get(field), g.get(field))) {
          sb.append("seq ").append(seq).append(" field ").append(field).append(": want ").append(w.get(field))
              .append(" got ").append(g.get(field)).append('\n');
          shown++;
        }
      }
    }
    return sb.toString();
  }

  /** The fake refuses every 7th event row (not the dead letters, the rows with a "stage"). */
  static Boolean refused(TableRow r) {
    return !r.containsKey("stage") && Long.parseLong(String.valueOf(r.get(SystemColumns.SEQUENCE))) % 7 == 3;
  }

  static List<GenericRecord> records(Schema event, Schema row) {
    GeneratorSettings settings = GeneratorSettings.builder().completeObjects(false).maxSizeCollection(3)
        .minStringLength(0).maxStringLength(12).build();
    RandomRecordFactory f = new RandomRecordFactory(event, settings, 7);
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) out.add(SystemColumns.tableRecord(row, f.next(), 1, i, 1_000L * i));
    return out;
  }

  static List<GenericRecord> frontDeadLetters() {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < FRONT_DEAD_LETTERS; i++) {
      out.add(DeadLetters.of(DeadLetters.Stage.DECODE, new IllegalArgumentException("truncated"),
          new EventHeaders.Stamp(9, 100 + i, 0), null, "garbage".getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }

  /**
   * A row's values in one comparable form, driven by the column types: BigQuery's JSON gives INT64
   * as text, the fake's protos give numbers; a missing NULLABLE column is null, a missing REPEATED
   * one empty; BYTES as base64; a map's entries sorted by key; column names case-insensitive, as in
   * BigQuery (the fake gives the proto's lower-case field names back for Avro and Row appends);
   * FLOAT64 equal to 1e-14 relative (the fake reads Avro and Row appends back with 15-16 digits).
   */
  static Map<String, Object> normalize(Map<String, Object> row, List<TableFieldSchema> columns) {
    Map<String, Object> out = new TreeMap<>();
    Map<String, Object> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    byName.putAll(row);
    for (TableFieldSchema c : columns) {
      Object v = byName.get(c.getName());
      if ("REPEATED".equals(c.getMode())) {
        List<Object> list = new ArrayList<>();
        if (v != null) for (Object e : (List<?>) v) list.add(scalar(e, c));
        if (isMap(c)) list.sort(java.util.Comparator.comparing(e -> String.valueOf(((Map<?, ?>) e).get("key"))));
        out.put(c.getName(), list);
      } else {
        out.put(c.getName(), v == null ? null : scalar(v, c));
      }
    }
    return out;
  }

  /** A FLOAT64 that equals another within 1e-14 relative (hashCode constant: only equals is used). */
  record Approx(double v) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Approx a && Math.abs(v - a.v) <= 1e-14 * Math.max(Math.abs(v), Math.abs(a.v));
    }

    @Override
    public int hashCode() {
      return 0;
    }

    @Override
    public String toString() {
      return Double.toString(v);
    }
  }

  /** A map's column (REPEATED key/value records): its entries have no order. */
  private static boolean isMap(TableFieldSchema c) {
    return "RECORD".equals(c.getType()) && c.getFields().size() == 2 && "key".equals(c.getFields().get(0).getName())
        && "value".equals(c.getFields().get(1).getName());
  }

  @SuppressWarnings("unchecked")
  private static Object scalar(Object v, TableFieldSchema c) {
    return switch (c.getType()) {
      case "RECORD" -> normalize((Map<String, Object>) v, c.getFields());
      case "INT64" -> Long.parseLong(String.valueOf(v));
      case "FLOAT64" -> new Approx(Double.parseDouble(String.valueOf(v)));
      case "BOOL" -> Boolean.parseBoolean(String.valueOf(v));
      case "BYTES" -> v instanceof byte[] b ? Base64.getEncoder().encodeToString(b)
          : v instanceof com.google.protobuf.ByteString bs ? Base64.getEncoder().encodeToString(bs.toByteArray())
          : String.valueOf(v);
      default -> String.valueOf(v);
    };
  }
}
