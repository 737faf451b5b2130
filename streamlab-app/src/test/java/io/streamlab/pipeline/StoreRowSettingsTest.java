package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.write.FormatToStore;
import io.streamlab.pipeline.write.WriteMethod;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.store.StoreSpec;
import io.streamlab.testing.ExampleSchemas;
import io.streamlab.udf.UdfLoader;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** formatToStore STORE_ROW is refused at start-up, saying why, wherever it cannot be made. */
class StoreRowSettingsTest {
  private static final StoreSpec PG = StoreSpec.postgres("jdbc:postgresql://127.0.0.1:5432/postgres", null);
  private static final WriteSettings STORE_ROW = WriteSettings.of(WriteMethod.STORAGE_API_AT_LEAST_ONCE, FormatToStore.STORE_ROW);

  private static IngestSettings settings(StoreSpec store, TransportFormat format, Schema schema, Decoding decoding) {
    return new IngestSettings("127.0.0.1:9092", "events", schema, format, store, "events", 500, null, null, decoding, STORE_ROW);
  }

  private static void refused(String why, StoreSpec store, TransportFormat format, Schema schema, Decoding decoding) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings(store, format, schema, decoding));
    assertTrue(e.getMessage().startsWith("--formatToStore=STORE_ROW") && e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void onlyPostgresFromThriftWithoutAUdfForASchemaItCanWrite() {
    Schema event = SchemaLoader.loadDefault();
    assertDoesNotThrow(() -> settings(PG, TransportFormat.THRIFT, event, Decoding.DEFAULT));
    refused("only --store=postgres", StoreSpec.duckdb(Path.of("x.duckdb")), TransportFormat.THRIFT, event, Decoding.DEFAULT);
    refused("only --store=postgres", StoreSpec.bigquery("p:d.t"), TransportFormat.THRIFT, event, Decoding.DEFAULT);
    refused("made from Thrift", PG, TransportFormat.JSON, event, Decoding.DEFAULT);
    refused("a UDF sees table records", PG, TransportFormat.THRIFT, event,
        new Decoding(new UdfLoader("io.streamlab.udf.BoomFunction", null)));
    refused("cannot write in one pass", PG, TransportFormat.THRIFT, ExampleSchemas.load(ExampleSchemas.MESSAGE_JSON), Decoding.DEFAULT);
  }
}
