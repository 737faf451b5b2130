package io.streamlab.formats;

import org.apache.avro.Schema;

/** How events are encoded on the wire. Every format is driven by the canonical Avro schema. */
public enum TransportFormat {
  /** Thrift binary protocol, byte for byte what Thrift-generated code writes. */
  THRIFT {
    @Override
    public PayloadCodec codec(Schema schema) {
      return new ThriftBinaryCodec(schema);
    }
  },
  /** Avro binary, no container header (the schema is known to both ends). */
  AVRO {
    @Override
    public PayloadCodec codec(Schema schema) {
      return new AvroBinaryCodec(schema);
    }
  },
  /** Plain JSON objects as a JSON Schema would describe them (not Avro's JSON encoding). */
  JSON {
    @Override
    public PayloadCodec codec(Schema schema) {
      return new JsonCodec(schema);
    }
  };

  public abstract PayloadCodec codec(Schema schema);
}
