package io.streamlab.generator;

import io.streamlab.formats.Utf8Slice;
import io.streamlab.schema.ThriftIdl;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
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
  private static final byte[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_".getBytes(StandardCharsets.US_ASCII);

  private final SplittableRandom random;
  private final GeneratorSettings settings;
  private final Maker root;

  public RandomRecordFactory(Schema schema, GeneratorSettings settings, long seed) {
    this.random = new SplittableRandom(seed);
    this.settings = settings;
    Set<String> skewed = new HashSet<>(settings.fieldsWithSkew());
    this.root = compile(schema, "", skewed);
    if (!skewed.isEmpty()) {
      throw new IllegalArgumentException("--fieldsWithSkew names no field of " + schema.getName() + ": " + skewed
          + " (use dotted paths for nested fields, e.g. user.userId)");
    }
  }

  public GenericRecord next() {
    return (GenericRecord) root.make();
  }

  private interface Maker {
    Object make();
  }

  /** @param skewed field paths still to be skewed; each is removed when found */
  private Maker compile(Schema s, String path, Set<String> skewed) {
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
          String fieldPath = path.isEmpty() ? fields.get(i).name() : path + "." + fields.get(i).name();
          makers[i] = compile(type, fieldPath, skewed);
          if (skewed.remove(fieldPath)) makers[i] = skewed(makers[i]);
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
        // The encoders write a string's UTF-8 bytes, so the values are cached as UTF-8 (a String
        // would be encoded again for every event). All of a field's values sit in one array and
        // each event's value is a new Utf8Slice over its bytes: a value picked at random is then
        // read from the cache lines its bytes are on, where a cached object per value (a Utf8)
        // costs a further miss on a line of its own; the slice is allocated where the thread
        // allocates anyway, in lines already in its cache.
        byte[][] values = stringCache();
        int[] offsets = new int[values.length + 1];
        for (int i = 0; i < values.length; i++) offsets[i + 1] = offsets[i] + values[i].length;
        byte[] all = new byte[offsets[values.length]];
        for (int i = 0; i < values.length; i++) System.arraycopy(values[i], 0, all, offsets[i], values[i].length);
        int n = values.length;
        return () -> {
          int i = random.nextInt(n);
          return new Utf8Slice(all, offsets[i], offsets[i + 1] - offsets[i]);
        };
      }
      case BYTES: {
        byte[][] cache = stringCache();
        return () -> ByteBuffer.wrap(cache[random.nextInt(cache.length)].clone());
      }
      case FIXED: {
        int size = s.getFixedSize();
        return () -> {
          byte[] b = new byte[size];
          for (int i = 0; i < size; i++) b[i] = (byte) random.nextInt(256);
          return new GenericData.Fixed(s, b);
        };
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
        Maker element = compile(s.getElementType(), path, skewed);
        // a Thrift set holds each element once: Thrift-generated readers would drop repeats
        boolean set = "set".equals(s.getProp(ThriftIdl.CONTAINER));
        return () -> {
          int n = random.nextInt(settings.maxSizeCollection() + 1);
          List<Object> items = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            Object item = element.make();
            if (!set || !items.contains(item)) items.add(item);
          }
          return items;
        };
      }
      case MAP: {
        Maker value = compile(s.getValueType(), path, skewed);
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

  /** The per-field string cache (UTF-8): each string field draws from its own fixed set of values. */
  private byte[][] stringCache() {
    byte[][] cache = new byte[settings.stringCacheSize()][];
    for (int i = 0; i < cache.length; i++) cache[i] = randomString();
    return cache;
  }

  /**
   * {@code skewBuckets} values of the field drawn once, then picked with Zipf weights
   * 1/rank^skewDegree (degree 0 = uniform over the buckets).
   */
  private Maker skewed(Maker base) {
    Object[] buckets = new Object[settings.skewBuckets()];
    double[] cdf = new double[buckets.length];
    double sum = 0;
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = base.make();
      sum += 1 / Math.pow(i + 1, settings.skewDegree());
      cdf[i] = sum;
    }
    for (int i = 0; i < cdf.length; i++) cdf[i] /= sum;
    return () -> {
      int k = java.util.Arrays.binarySearch(cdf, random.nextDouble());
      return buckets[Math.min(buckets.length - 1, k < 0 ? -k - 1 : k)];
    };
  }

  /** An ASCII string's bytes, which are its UTF-8. */
  private byte[] randomString() {
    int len = settings.minStringLength() + random.nextInt(settings.maxStringLength() - settings.minStringLength() + 1);
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) b[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    return b;
  }
}
