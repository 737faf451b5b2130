package io.streamlab.store.duckdb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.avro.Schema;
import io.streamlab.formats.Utf8Slice;
import org.apache.avro.util.Utf8;

/**
 * Avro schema -> Arrow fields, and per field a {@link Setter} that puts Avro values into an Arrow
 * vector. Built once per schema; per batch a setter is {@link Setter#bind bound} to that batch's
 * fresh vector (child vectors and casts resolved once), so appending a row is a loop over bound
 * {@link Column}s. A value left unset stays null (fresh vectors start all-null).
 */
final class AvroArrow {
  private AvroArrow() {}

  /** How values of one Avro type go into a vector of the matching Arrow type. */
  interface Setter {
    Column bind(FieldVector vector);
  }

  /** A setter bound to one vector: puts the value of row {@code index}; null leaves it null. */
  interface Column {
    void set(int index, Object value);
  }

  static Field field(String name, Schema schema) {
    Schema t = DuckDbTypes.nonNull(schema);
    FieldType nullable = FieldType.nullable(arrowType(t, name));
    return switch (t.getType()) {
      case RECORD -> new Field(name, nullable, t.getFields().stream().map(f -> field(f.name(), f.schema())).toList());
      case ARRAY -> new Field(name, nullable, List.of(field("item", t.getElementType())));
      case MAP -> new Field(name, nullable, List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
          List.of(new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null), field("value", t.getValueType())))));
      default -> new Field(name, nullable, null);
    };
  }

  private static ArrowType arrowType(Schema t, String name) {
    return switch (t.getType()) {
      case STRING, ENUM -> ArrowType.Utf8.INSTANCE;
      case LONG -> new ArrowType.Int(64, true);
      case INT -> new ArrowType.Int(32, true);
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case BYTES, FIXED -> ArrowType.Binary.INSTANCE;
      case RECORD -> ArrowType.Struct.INSTANCE;
      case ARRAY -> ArrowType.List.INSTANCE;
      case MAP -> new ArrowType.Map(false);
      default -> throw new IllegalArgumentException("field '" + name + "': no Arrow type for " + t.getType());
    };
  }

  static Setter setter(Schema schema) {
    Schema t = DuckDbTypes.nonNull(schema);
    return switch (t.getType()) {
      case STRING, ENUM -> v -> {
        VarCharVector c = (VarCharVector) v;
        return (i, o) -> {
          if (o instanceof Utf8Slice u) c.setSafe(i, u.array(), u.offset(), u.byteLength());
          else if (o instanceof Utf8 u) c.setSafe(i, u.getBytes(), 0, u.getByteLength());
          else if (o != null) c.setSafe(i, o.toString().getBytes(StandardCharsets.UTF_8));
        };
      };
      case LONG -> v -> {
        BigIntVector c = (BigIntVector) v;
        return (i, o) -> {
          if (o != null) c.setSafe(i, (Long) o);
        };
      };
      case INT -> v -> {
        IntVector c = (IntVector) v;
        return (i, o) -> {
          if (o != null) c.setSafe(i, (Integer) o);
        };
      };
      case BOOLEAN -> v -> {
        BitVector c = (BitVector) v;
        return (i, o) -> {
          if (o != null) c.setSafe(i, (Boolean) o ? 1 : 0);
        };
      };
      case DOUBLE -> v -> {
        Float8Vector c = (Float8Vector) v;
        return (i, o) -> {
          if (o != null) c.setSafe(i, (Double) o);
        };
      };
      case FLOAT -> v -> {
        Float4Vector c = (Float4Vector) v;
        return (i, o) -> {
          if (o != null) c.setSafe(i, (Float) o);
        };
      };
      case BYTES, FIXED -> v -> {
        VarBinaryVector c = (VarBinaryVector) v;
        return (i, o) -> {
          if (o == null) return;
          // a duplicate: Arrow's copy may move the buffer's position, and the record must not change
          ByteBuffer b = o instanceof ByteBuffer bb ? bb.duplicate()
              : ByteBuffer.wrap(((org.apache.avro.generic.GenericFixed) o).bytes());
          c.setSafe(i, b, b.position(), b.remaining());
        };
      };
      case RECORD -> recordSetter(t);
      case ARRAY -> listSetter(t);
      case MAP -> mapSetter(t);
      default -> throw new IllegalArgumentException("no Arrow setter for " + t.getType());
    };
  }

  private static Setter recordSetter(Schema record) {
    List<Schema.Field> fields = record.getFields();
    Setter[] children = new Setter[fields.size()];
    for (int k = 0; k < children.length; k++) children[k] = setter(fields.get(k).schema());
    return v -> {
      StructVector sv = (StructVector) v;
      Column[] columns = new Column[children.length];
      for (int k = 0; k < columns.length; k++) columns[k] = children[k].bind((FieldVector) sv.getChildByOrdinal(k));
      return (i, o) -> {
        if (o == null) return;
        org.apache.avro.generic.IndexedRecord r = (org.apache.avro.generic.IndexedRecord) o;
        sv.setIndexDefined(i);
        for (int k = 0; k < columns.length; k++) columns[k].set(i, r.get(k));
      };
    };
  }

  private static Setter listSetter(Schema array) {
    Setter element = setter(array.getElementType());
    return v -> {
      ListVector lv = (ListVector) v;
      Column data = element.bind(lv.getDataVector());
      return (i, o) -> {
        if (o == null) return;
        Collection<?> items = (Collection<?>) o;
        int offset = lv.startNewValue(i);
        int k = 0;
        for (Object item : items) data.set(offset + k++, item);
        lv.endValue(i, items.size());
      };
    };
  }

  private static Setter mapSetter(Schema map) {
    Setter key = setter(Schema.create(Schema.Type.STRING));
    Setter value = setter(map.getValueType());
    return v -> {
      MapVector mv = (MapVector) v;
      StructVector entries = (StructVector) mv.getDataVector();
      Column keys = key.bind((FieldVector) entries.getChildByOrdinal(0));
      Column values = value.bind((FieldVector) entries.getChildByOrdinal(1));
      return (i, o) -> {
        if (o == null) return;
        Map<?, ?> m = (Map<?, ?>) o;
        int offset = mv.startNewValue(i);
        int k = 0;
        for (Map.Entry<?, ?> e : new ArrayList<>(m.entrySet())) {
          entries.setIndexDefined(offset + k);
          keys.set(offset + k, e.getKey());
          values.set(offset + k, e.getValue());
          k++;
        }
        mv.endValue(i, m.size());
      };
    };
  }
}
