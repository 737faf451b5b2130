package io.streamlab.store.bigquery;

import com.google.api.services.bigquery.model.TableRow;
import io.streamlab.schema.AvroSchemas;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Table record values in the shapes {@link BigQueryTypes} gives their columns: a map becomes a
 * list of key/value records, an enum its symbol, int and float widen to INT64 and FLOAT64, bytes
 * and fixed become BYTES. Two targets, one walk:
 * <ul>
 *   <li>{@link #toTableRow}: a {@link TableRow} (JSON-shaped: BYTES as base64), for streaming
 *       inserts and for {@code formatToStore=TABLE_ROW};
 *   <li>{@link #toAvro}: a GenericRecord of the Avro schema BigQueryIO derives from the
 *       TableSchema, for Storage Write API appends of {@code AVRO_GENERIC_RECORD}. BigQueryIO's own
 *       Avro-to-proto conversion cannot take the record as it is: it converts a map's values by
 *       {@code Schema.create(valueType)}, which fails for maps of records, enums or fixed.
 * </ul>
 * Null fields are left out of a TableRow (BigQuery reads a missing NULLABLE column as NULL); a
 * null array or map becomes an empty one (REPEATED columns have no NULL).
 */
public final class BigQueryValues {
  private BigQueryValues() {}

  public static TableRow toTableRow(GenericRecord record) {
    return (TableRow) value(record, record.getSchema(), null);
  }

  /** @param target the Avro schema of {@code BigQueryAvroUtils.toGenericAvroSchema(tableSchema(record schema))} */
  public static GenericRecord toAvro(GenericRecord record, Schema target) {
    return (GenericRecord) value(record, record.getSchema(), target);
  }

  /** @param target null: TableRow shapes; else the Avro schema to build */
  private static Object value(Object v, Schema s, Schema target) {
    Schema t = AvroSchemas.nonNull(s);
    Schema to = target == null ? null : AvroSchemas.nonNull(target);
    if (v == null) {
      return switch (t.getType()) {
        case ARRAY, MAP -> new ArrayList<>();
        default -> null;
      };
    }
    return switch (t.getType()) {
      case RECORD -> record((GenericRecord) v, t, to);
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        Schema element = to == null ? null : to.getElementType();
        for (Object e : (Collection<?>) v) out.add(value(e, t.getElementType(), element));
        yield out;
      }
      case MAP -> {
        List<Object> out = new ArrayList<>();
        Schema entry = to == null ? null : AvroSchemas.nonNull(to.getElementType());
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          Object value = value(e.getValue(), t.getValueType(), entry == null ? null : entry.getField("value").schema());
          if (entry == null) {
            TableRow row = new TableRow().set("key", e.getKey().toString());
            if (value != null) row.set("value", value);
            out.add(row);
          } else {
            GenericData.Record r = new GenericData.Record(entry);
            r.put("key", e.getKey().toString());
            r.put("value", value);
            out.add(r);
          }
        }
        yield out;
      }
      case STRING, ENUM -> v.toString();
      case INT -> ((Integer) v).longValue();
      case FLOAT -> ((Float) v).doubleValue();
      case BYTES, FIXED -> bytes(v, to == null);
      default -> v; // long, double, boolean
    };
  }

  private static Object record(GenericRecord r, Schema s, Schema to) {
    if (to == null) {
      TableRow row = new TableRow();
      for (Schema.Field f : s.getFields()) {
        Object value = value(r.get(f.pos()), f.schema(), null);
        if (value != null) row.set(f.name(), value);
      }
      return row;
    }
    GenericData.Record out = new GenericData.Record(to);
    for (Schema.Field f : s.getFields()) {
      Schema.Field target = to.getField(f.name());
      if (target == null) throw new IllegalArgumentException("BigQuery record " + to.getName() + " has no field " + f.name());
      out.put(target.pos(), value(r.get(f.pos()), f.schema(), target.schema()));
    }
    return out;
  }

  /** TableRow: base64 text (the JSON encoding of BYTES); Avro: a ByteBuffer. */
  private static Object bytes(Object v, boolean base64) {
    byte[] b;
    if (v instanceof GenericFixed f) {
      b = f.bytes();
    } else {
      ByteBuffer buf = ((ByteBuffer) v).duplicate();
      b = new byte[buf.remaining()];
      buf.get(b);
    }
    return base64 ? Base64.getEncoder().encodeToString(b) : ByteBuffer.wrap(b);
  }
}
