package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.bench.TableVerifier;
import io.streamlab.bench.Verification;
import io.streamlab.formats.TransportFormat;
import io.streamlab.pipeline.source.Source;
import io.streamlab.pipeline.write.WriteSettings;
import io.streamlab.store.StoreSpec;
import io.streamlab.store.TableStore;
import io.streamlab.udf.BoomFunction;
import io.streamlab.udf.UdfLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole ingestion graph as IngestPipeline builds it, from an in-memory source: three composite
 * steps at the top, Read -> Decode -> Write, and every message's events in the table or its
 * dead-letter table.
 */
class IngestPipelineCompositeTest {
  @TempDir Path dir;

  /** The messages of FrontStagesTest, as a source. */
  private static final class InMemory extends Source {
    @Override
    public PCollection<KafkaRecord<byte[], byte[]>> expand(PBegin begin) {
      return begin.apply("Messages", Create.of(FrontStagesTest.messages()).withCoder(Source.messageCoder()));
    }
  }

  @Test
  void theGraphIsReadDecodeWriteAndEveryEventArrives() throws Exception {
    StoreSpec store = StoreSpec.duckdb(dir.resolve("t.duckdb"));
    TestPipeline p = TestPipeline.create().enableAbandonedNodeEnforcement(true);
    IngestSettings s = new IngestSettings(null, null, FrontStagesTest.SCHEMA, TransportFormat.THRIFT, store, "events",
        500, null, null, new Decoding(new UdfLoader(BoomFunction.class.getName(), null)), WriteSettings.defaults());
    IngestPipeline.build(p, s, new InMemory());

    List<String> topLevel = new ArrayList<>();
    p.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
      @Override
      public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
        if (!node.isRootNode() && node.getEnclosingNode().isRootNode()) topLevel.add(node.getFullName());
        return CompositeBehavior.ENTER_TRANSFORM;
      }
    });
    assertEquals(List.of("Read", "Decode", "Write"), topLevel);

    p.run().waitUntilFinish();
    try (TableStore t = store.open(); Connection c = t.openQueryConnection()) {
      Verification v = TableVerifier.verify(c, "events", Map.of(FrontStagesTest.PRODUCER,
          (long) FrontStagesTest.GOOD + 2), Set.of());
      assertEquals(0, v.lost(), "lost");
      assertEquals(0, v.duplicated(), "duplicated");
      assertEquals(Map.of("decode", 1L, "udf", 1L), v.failedByStage());
    }
  }
}
