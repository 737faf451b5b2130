package io.streamlab.formats;

import org.apache.avro.Schema;

/** How events are encoded on the wire. Every format is driven by the canonical Avro schema. */
public enum TransportFormat {
  /** Thrift binary protocol, byte for byte what Thrift-generated code writes. */
  THRIFT {
    @Override
    public PayloadCodec codec(Schema schema, int maxNestingDepth) {
      return new ThriftBinaryCodec(schema, maxNestingDepth);
    }
  },
  /** Avro binary, no container header (the schema is known to both ends). */
  AVRO {
    @Override
    public PayloadCodec codec(Schema schema, int maxNestingDepth) {
      return new AvroBinaryCodec(schema); // nests only as deep as the schema, which has no recursion
    }
  },
  /** Plain JSON objects as a JSON Schema would describe them (not Avro's JSON encoding). */
  JSON {
    @Override
    public PayloadCodec codec(Schema schema, int maxNestingDepth) {
      return new JsonCodec(schema, maxNestingDepth);
    }
  };

  /** Default bound on nesting a decoder accepts ({@code --maxNestingDepth}). */
  public static final int DEFAULT_MAX_NESTING_DEPTH = 64;

  public PayloadCodec codec(Schema schema) {
    return codec(schema, DEFAULT_MAX_NESTING_DEPTH);
  }

  /** @param maxNestingDepth deepest nesting the decoder accepts where the schema does not bound it */
  public abstract PayloadCodec codec(Schema schema, int maxNestingDepth);
}
