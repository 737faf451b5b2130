package io.streamlab.formats;

import org.apache.avro.Schema;

/** How events are encoded on the wire. Every format is driven by the canonical Avro schema. */
public enum TransportFormat {
  THRIFT {
    @Override
    public PayloadCodec codec(Schema schema) {
      return new ThriftBinaryCodec(schema);
    }
  };

  public abstract PayloadCodec codec(Schema schema);
}
