package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The convert stage's element size is known for every formatToStore, and its sampled mean is the true mean. */
class ElementSizesTest {
  @ParameterizedTest
  @EnumSource(FormatToStore.class)
  void meanSizeAfterConversionIsTheEncodedMean(FormatToStore format) throws Exception {
    Schema schema = SystemColumns.tableRecordSchema(SchemaLoader.loadDefault());
    RandomRecordFactory random = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 5);
    Coder<Object> coder = format.coder(schema);
    ElementSizes sizes = new ElementSizes(format);
    int n = ElementSizes.EVERY * 100;
    long counted = 0, exact = 0;
    for (int i = 0; i < n; i++) {
      Object element = format.fromRecord(random.next());
      counted += sizes.bytes(element, schema);
      exact += element instanceof String s ? s.length() : CoderUtils.encodeToByteArray(coder, element).length;
    }
    assertTrue(exact > 0);
    if (format == FormatToStore.TABLE_ROW) {
      assertEquals(exact, counted, "a JSON row's length is counted for every element");
    } else {
      assertEquals(1.0, (double) counted / exact, 0.1, "sampled one in " + ElementSizes.EVERY + ": mean within 10 %");
    }
  }
}
