package io.streamlab.pipeline.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import io.streamlab.testing.TestValues;
import java.io.InputStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every formatToStore element, and its coder, gives back a record equal to the one it was made from. */
class FormatToStoreTest {
  @ParameterizedTest
  @EnumSource(FormatToStore.class)
  void roundTripsEveryAvroType(FormatToStore format) throws Exception {
    Schema schema;
    try (InputStream in = getClass().getResourceAsStream("/all_types.avsc")) {
      schema = SystemColumns.tableRecordSchema(new Schema.Parser().parse(in));
    }
    roundTrip(format, schema, GeneratorSettings.builder().completeObjects(false).build());
  }

  @ParameterizedTest
  @EnumSource(FormatToStore.class)
  void roundTripsTheThriftEvent(FormatToStore format) throws Exception {
    roundTrip(format, SystemColumns.tableRecordSchema(SchemaLoader.loadDefault()), GeneratorSettings.builder().build());
  }

  private static void roundTrip(FormatToStore format, Schema schema, GeneratorSettings settings) throws Exception {
    RandomRecordFactory random = new RandomRecordFactory(schema, settings, 11);
    Coder<Object> coder = format.coder(schema);
    for (int n = 0; n < 200; n++) {
      GenericRecord original = random.next();
      assertEquals(GenericData.get().validate(schema, original), true, "generated record fits the schema");
      Object element = format.fromRecord(original);
      Object decoded = CoderUtils.decodeFromByteArray(coder, CoderUtils.encodeToByteArray(coder, element));
      GenericRecord back = format.toRecord(decoded, schema);
      // compared as values: the generator's strings are slices of its caches, which Avro's record
      // equality takes for equal to a Utf8 but not to the String a map's value comes back as
      Object expected = TestValues.normalize(original);
      assertEquals(expected, TestValues.normalize(back), format + " changed record " + n);
      assertEquals(expected, TestValues.normalize(format.toRecord(format.fromRecord(back), schema)), format + " is not stable");
    }
  }
}
