package io.streamlab.store.postgres;

import io.streamlab.schema.SystemColumns;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * A table record whose columns are already PostgreSQL's binary COPY form ({@link ThriftCopyRows}):
 * the element of formatToStore STORE_ROW. PgCopyWriter sends its bytes as they are. It is still a
 * record for everything else on the way: its identity and send time are at hand, and the first
 * read of an event field decodes the event's bytes into an ordinary record (a dead letter, a
 * shuffle's coder, another store), which from then on answers; a change to it drops the bytes.
 */
public final class CopyRow implements GenericRecord {
  private final ThriftCopyRows source;
  private final byte[] payload;
  /** The columns of the row but the write time, in COPY's binary form; null once the row was changed. */
  private byte[] columns;
  private final int producerId;
  private final long sequence;
  private final long sendTimeMicros;
  private GenericData.Record record;

  CopyRow(ThriftCopyRows source, byte[] payload, byte[] columns, int producerId, long sequence, long sendTimeMicros) {
    this.source = source;
    this.payload = payload;
    this.columns = columns;
    this.producerId = producerId;
    this.sequence = sequence;
    this.sendTimeMicros = sendTimeMicros;
  }

  /** The encoded columns (the write time not among them), or null where the row was changed since. */
  byte[] columns() {
    return columns;
  }

  /** The size of the row's encoded columns; -1 where the row was changed since. */
  public int encodedBytes() {
    return columns != null ? columns.length : -1;
  }

  @Override
  public Schema getSchema() {
    return source.tableSchema();
  }

  @Override
  public Object get(int i) {
    int system = i - (source.tableSchema().getFields().size() - 3);
    if (record == null && system >= 0) {
      return switch (system) {
        case 0 -> producerId;
        case 1 -> sequence;
        default -> sendTimeMicros;
      };
    }
    return record().get(i);
  }

  @Override
  public Object get(String key) {
    Schema.Field f = getSchema().getField(key);
    return f == null ? null : get(f.pos());
  }

  @Override
  public void put(int i, Object v) {
    record().put(i, v);
    columns = null;
  }

  @Override
  public void put(String key, Object v) {
    record().put(key, v);
    columns = null;
  }

  /** The event decoded into an ordinary table record, once. */
  private GenericData.Record record() {
    if (record == null) {
      record = SystemColumns.stamp(source.codec().decodeAs(payload, getSchema()), producerId, sequence, sendTimeMicros);
    }
    return record;
  }

  /** Equal to a record of the same schema and values (GenericData.Record's equals does not see it back). */
  @Override
  public boolean equals(Object o) {
    if (o instanceof CopyRow c) return record().equals(c.record());
    return o instanceof GenericData.Record r && record().equals(r);
  }

  @Override
  public int hashCode() {
    return record().hashCode();
  }

  @Override
  public String toString() {
    return record().toString();
  }
}
