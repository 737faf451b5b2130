package io.streamlab.generator;

import io.streamlab.schema.ThriftIdl;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Random records of any schema. The schema is compiled once into value makers; string fields
 * draw from a per-field cache of pre-generated values (cheap, and compressible like real data).
 * The same schema, settings and seed give the same records.
 */
public final class RandomRecordFactory {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_".toCharArray();

  private final SplittableRandom random;
  private final GeneratorSettings settings;
  private final Maker root;

  public RandomRecordFactory(Schema schema, GeneratorSettings settings, long seed) {
    this.random = new SplittableRandom(seed);
    this.settings = settings;
    this.root = compile(schema);
  }

  public GenericRecord next() {
    return (GenericRecord) root.make();
  }

  private interface Maker {
    Object make();
  }

  private Maker compile(Schema s) {
    switch (s.getType()) {
      case RECORD: {
        List<Schema.Field> fields = s.getFields();
        Maker[] makers = new Maker[fields.size()];
        boolean[] optional = new boolean[fields.size()];
        for (int i = 0; i < makers.length; i++) {
          Schema type = fields.get(i).schema();
          if (type.isUnion()) {
            optional[i] = type.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL);
            type = type.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow();
          }
          makers[i] = compile(type);
        }
        return () -> {
          GenericData.Record r = new GenericData.Record(s);
          for (int i = 0; i < makers.length; i++) {
            if (optional[i] && !settings.completeObjects() && random.nextBoolean()) continue;
            r.put(i, makers[i].make());
          }
          return r;
        };
      }
      case STRING: {
        String[] cache = new String[settings.stringCacheSize()];
        for (int i = 0; i < cache.length; i++) cache[i] = randomString();
        return () -> cache[random.nextInt(cache.length)];
      }
      case BYTES: {
        String[] cache = new String[settings.stringCacheSize()];
        for (int i = 0; i < cache.length; i++) cache[i] = randomString();
        return () -> ByteBuffer.wrap(cache[random.nextInt(cache.length)].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      case LONG:
        return random::nextLong;
      case INT: {
        String t = s.getProp(ThriftIdl.INT_TYPE);
        int bound = "byte".equals(t) ? 128 : "i16".equals(t) ? 32768 : Integer.MAX_VALUE;
        return () -> random.nextInt(bound);
      }
      case BOOLEAN:
        return random::nextBoolean;
      case DOUBLE:
        return random::nextDouble;
      case FLOAT:
        return () -> (float) random.nextDouble();
      case ENUM: {
        List<String> symbols = s.getEnumSymbols();
        return () -> new GenericData.EnumSymbol(s, symbols.get(random.nextInt(symbols.size())));
      }
      case ARRAY: {
        Maker element = compile(s.getElementType());
        return () -> {
          int n = random.nextInt(settings.maxSizeCollection() + 1);
          List<Object> items = new ArrayList<>(n);
          for (int i = 0; i < n; i++) items.add(element.make());
          return items;
        };
      }
      case MAP: {
        Maker value = compile(s.getValueType());
        return () -> {
          int n = random.nextInt(settings.maxSizeCollection() + 1);
          Map<String, Object> m = new HashMap<>();
          for (int i = 0; i < n; i++) m.put("k" + random.nextInt(1_000_000), value.make());
          return m;
        };
      }
      default:
        throw new IllegalArgumentException("cannot generate values of Avro type " + s.getType());
    }
  }

  private String randomString() {
    int len = settings.minStringLength() + random.nextInt(settings.maxStringLength() - settings.minStringLength() + 1);
    char[] c = new char[len];
    for (int i = 0; i < len; i++) c[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    return new String(c);
  }
}
