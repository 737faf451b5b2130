package io.streamlab.generator;

import java.io.Serializable;

/**
 * Shape of generated events, as the original suite's generator options. Defaults give the
 * SimplerCompoundEvent ~1.1 KB in Thrift binary (16 strings of 20-100 characters).
 *
 * @param completeObjects set every optional field; when false each is set half the time
 * @param stringCacheSize distinct values pre-generated per string field, so payloads repeat and
 *     compress like real data instead of like noise
 */
public record GeneratorSettings(int minStringLength, int maxStringLength, int maxSizeCollection,
    boolean completeObjects, int stringCacheSize) implements Serializable {

  public GeneratorSettings {
    if (minStringLength < 0 || maxStringLength < minStringLength) {
      throw new IllegalArgumentException("string lengths need 0 <= --minStringLength <= --maxStringLength, got "
          + minStringLength + ".." + maxStringLength);
    }
    if (maxSizeCollection < 0) throw new IllegalArgumentException("--maxSizeCollection must be >= 0");
    if (stringCacheSize < 1) throw new IllegalArgumentException("the string cache needs at least one entry");
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

    public Builder minStringLength(int v) { minStringLength = v; return this; }
    public Builder maxStringLength(int v) { maxStringLength = v; return this; }
    public Builder maxSizeCollection(int v) { maxSizeCollection = v; return this; }
    public Builder completeObjects(boolean v) { completeObjects = v; return this; }
    public Builder stringCacheSize(int v) { stringCacheSize = v; return this; }

    public GeneratorSettings build() {
      return new GeneratorSettings(minStringLength, maxStringLength, maxSizeCollection, completeObjects, stringCacheSize);
    }
  }
}
