package io.streamlab.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;

/**
 * Random canonical event schemas for property-style tests: records of every Avro type a schema
 * file can give streamlab (all primitives, enum, fixed, arrays, maps, nested records, nullable
 * fields), nested up to three levels. The same seed gives the same schema.
 */
public final class RandomSchemas {
  private final SplittableRandom random;
  private int names;

  private RandomSchemas(long seed) {
    this.random = new SplittableRandom(seed);
  }

  public static Schema generate(long seed) {
    return new RandomSchemas(seed).record(0);
  }

  private Schema record(int depth) {
    int n = 1 + random.nextInt(depth == 0 ? 10 : 5);
    List<Schema.Field> fields = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Schema type = type(depth);
      if (random.nextInt(3) == 0) {
        fields.add(new Schema.Field("f" + i, Schema.createUnion(Schema.create(Schema.Type.NULL), type), null,
            Schema.Field.NULL_DEFAULT_VALUE));
      } else {
        fields.add(new Schema.Field("f" + i, type, null, (Object) null));
      }
    }
    return Schema.createRecord("R" + names++, null, "random", false, fields);
  }

  private Schema type(int depth) {
    int kinds = depth < 3 ? 13 : 10;
    return switch (random.nextInt(kinds)) {
      case 0 -> Schema.create(Schema.Type.STRING);
      case 1 -> Schema.create(Schema.Type.LONG);
      case 2 -> Schema.create(Schema.Type.INT);
      case 3 -> Schema.create(Schema.Type.DOUBLE);
      case 4 -> Schema.create(Schema.Type.FLOAT);
      case 5 -> Schema.create(Schema.Type.BOOLEAN);
      case 6 -> Schema.create(Schema.Type.BYTES);
      case 7 -> Schema.createEnum("E" + names++, null, "random", List.of("A", "B", "C", "D").subList(0, 1 + random.nextInt(4)));
      case 8 -> Schema.createFixed("X" + names++, null, "random", 1 + random.nextInt(16));
      case 9 -> Schema.create(Schema.Type.STRING);
      case 10 -> Schema.createArray(type(depth + 1));
      case 11 -> Schema.createMap(type(depth + 1));
      default -> record(depth + 1);
    };
  }
}
