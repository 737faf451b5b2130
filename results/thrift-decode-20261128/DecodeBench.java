import io.streamlab.formats.PayloadCodec;
import io.streamlab.formats.TransportFormat;
import io.streamlab.generator.GeneratorSettings;
import io.streamlab.generator.RandomRecordFactory;
import io.streamlab.schema.SchemaLoader;
import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;

/** Thrift decode of the default event into its table record (what FrontFn does), ns per event, one thread. */
public class DecodeBench {
  public static void main(String[] a) {
    Schema schema = SchemaLoader.loadDefault();
    Schema table = SystemColumns.tableRecordSchema(schema);
    PayloadCodec codec = TransportFormat.THRIFT.codec(schema);
    RandomRecordFactory f = new RandomRecordFactory(schema, GeneratorSettings.builder().build(), 42);
    byte[][] msgs = new byte[10_000][];
    for (int i = 0; i < msgs.length; i++) msgs[i] = codec.encode(f.next());
    long sink = 0;
    for (int round = 1; round <= 8; round++) {
      long t0 = System.nanoTime();
      for (int rep = 0; rep < 100; rep++) for (byte[] m : msgs) sink += ((Long) codec.decodeAs(m, table).get(2));
      long ns = System.nanoTime() - t0;
      if (round > 3) System.out.printf("round %d: %.1f ns per event%n", round, ns / 1e6);
    }
    System.out.println(sink == 42 ? "" : "done");
  }
}
