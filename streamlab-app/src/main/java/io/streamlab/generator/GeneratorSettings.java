package io.streamlab.generator;

import io.streamlab.formats.Compression;
import java.io.Serializable;
import java.util.List;

/**
 * Shape of generated events, as the original suite's generator options, and how they are put on
 * the wire. Defaults give the SimplerCompoundEvent ~1.1 KB in Thrift binary (16 strings of 20-100
 * characters).
 *
 * @param completeObjects set every optional field; when false each is set half the time
 * @param stringCacheSize distinct values pre-generated per string field, so payloads repeat and
 *     compress like real data instead of like noise
 * @param fieldsWithSkew field paths (dotted for nested fields, e.g. {@code user.userId}) whose
 *     values are drawn from {@code skewBuckets} fixed values with a Zipf distribution of exponent
 *     {@code skewDegree}: a few values dominate, as hot keys do in real streams
 * @param compression NONE sends one event per message; anything else batches
 *     {@code maxRecordsPerBatch} events of a producer into one compressed envelope
 */
public record GeneratorSettings(int minStringLength, int maxStringLength, int maxSizeCollection,
    boolean completeObjects, int stringCacheSize, List<String> fieldsWithSkew, double skewDegree,
    int skewBuckets, Compression compression, int maxRecordsPerBatch) implements Serializable {

  public GeneratorSettings {
    if (minStringLength < 0 || maxStringLength < minStringLength) {
      throw new IllegalArgumentException("string lengths need 0 <= --minStringLength <= --maxStringLength, got "
          + minStringLength + ".." + maxStringLength);
    }
    if (maxSizeCollection < 0) throw new IllegalArgumentException("--maxSizeCollection must be >= 0");
    if (stringCacheSize < 1) throw new IllegalArgumentException("the string cache needs at least one entry");
    if (skewDegree < 0) throw new IllegalArgumentException("--skewDegree must be >= 0, got " + skewDegree);
    if (skewBuckets < 1) throw new IllegalArgumentException("--skewBuckets must be >= 1, got " + skewBuckets);
    if (maxRecordsPerBatch < 1) throw new IllegalArgumentException("--maxRecordsPerBatch must be >= 1, got " + maxRecordsPerBatch);
    fieldsWithSkew = List.copyOf(fieldsWithSkew);
  }

  public boolean batched() {
    return compression != Compression.NONE;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private int minStringLength = 20;
    private int maxStringLength = 100;
    private int maxSizeCollection = 5;
    private boolean completeObjects = true;
    private int stringCacheSize = 1024;
    private List<String> fieldsWithSkew = List.of();
    private double skewDegree = 1.0;
    private int skewBuckets = 10;
    private Compression compression = Compression.NONE;
    private int maxRecordsPerBatch = 100;

    public Builder minStringLength(int v) { minStringLength = v; return this; }
    public Builder maxStringLength(int v) { maxStringLength = v; return this; }
    public Builder maxSizeCollection(int v) { maxSizeCollection = v; return this; }
    public Builder completeObjects(boolean v) { completeObjects = v; return this; }
    public Builder stringCacheSize(int v) { stringCacheSize = v; return this; }
    public Builder fieldsWithSkew(List<String> v) { fieldsWithSkew = v; return this; }
    public Builder skewDegree(double v) { skewDegree = v; return this; }
    public Builder skewBuckets(int v) { skewBuckets = v; return this; }
    public Builder compression(Compression v) { compression = v; return this; }
    public Builder maxRecordsPerBatch(int v) { maxRecordsPerBatch = v; return this; }

    public GeneratorSettings build() {
      return new GeneratorSettings(minStringLength, maxStringLength, maxSizeCollection, completeObjects,
          stringCacheSize, fieldsWithSkew, skewDegree, skewBuckets, compression, maxRecordsPerBatch);
    }
  }
}
