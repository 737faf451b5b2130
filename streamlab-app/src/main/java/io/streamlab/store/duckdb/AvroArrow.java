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
import org.apache.avro.util.Utf8;

/**
 * Avro schema -> Arrow fields, and per field a {@link Setter} that puts an Avro value into an
 * Arrow vector. Built once per schema: appending a batch is then a loop over precompiled setters.
 * A value left unset stays null (fresh vectors start all-null).
 */
final class AvroArrow {
  private AvroArrow() {}

  interface Setter {
    void set(FieldVector vector, int index, Object value);
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
    Setter s = switch (t.getType()) {
      case STRING, ENUM -> (v, i, o) -> {
        if (o instanceof Utf8 u) ((VarCharVector) v).setSafe(i, u.getBytes(), 0, u.getByteLength());
        else ((VarCharVector) v).setSafe(i, o.toString().getBytes(StandardCharsets.UTF_8));
      };
      case LONG -> (v, i, o) -> ((BigIntVector) v).setSafe(i, (Long) o);
      case INT -> (v, i, o) -> ((IntVector) v).setSafe(i, (Integer) o);
      case BOOLEAN -> (v, i, o) -> ((BitVector) v).setSafe(i, (Boolean) o ? 1 : 0);
      case DOUBLE -> (v, i, o) -> ((Float8Vector) v).setSafe(i, (Double) o);
      case FLOAT -> (v, i, o) -> ((Float4Vector) v).setSafe(i, (Float) o);
      case BYTES, FIXED -> (v, i, o) -> {
        // a duplicate: Arrow's copy may move the buffer's position, and the record must not change
        ByteBuffer b = o instanceof ByteBuffer bb ? bb.duplicate() : ByteBuffer.wrap(((org.apache.avro.generic.GenericFixed) o).bytes());
        ((VarBinaryVector) v).setSafe(i, b, b.position(), b.remaining());
      };
      case RECORD -> recordSetter(t);
      case ARRAY -> listSetter(t);
      case MAP -> mapSetter(t);
      default -> throw new IllegalArgumentException("no Arrow setter for " + t.getType());
    };
    return (v, i, o) -> {
      if (o != null) s.set(v, i, o);
    };
  }

  private static Setter recordSetter(Schema record) {
    List<Schema.Field> fields = record.getFields();
    Setter[] children = new Setter[fields.size()];
    for (int k = 0; k < children.length; k++) children[k] = setter(fields.get(k).schema());
    return (v, i, o) -> {
      StructVector sv = (StructVector) v;
      org.apache.avro.generic.IndexedRecord r = (org.apache.avro.generic.IndexedRecord) o;
      sv.setIndexDefined(i);
      for (int k = 0; k < children.length; k++) {
        children[k].set((FieldVector) sv.getChildByOrdinal(k), i, r.get(k));
      }
    };
  }

  private static Setter listSetter(Schema array) {
    Setter element = setter(array.getElementType());
    return (v, i, o) -> {
      ListVector lv = (ListVector) v;
      Collection<?> items = (Collection<?>) o;
      int offset = lv.startNewValue(i);
      FieldVector data = lv.getDataVector();
      int k = 0;
      for (Object item : items) element.set(data, offset + k++, item);
      lv.endValue(i, items.size());
    };
  }

  private static Setter mapSetter(Schema map) {
    Setter key = setter(Schema.create(Schema.Type.STRING));
    Setter value = setter(map.getValueType());
    return (v, i, o) -> {
      MapVector mv = (MapVector) v;
      Map<?, ?> m = (Map<?, ?>) o;
      int offset = mv.startNewValue(i);
      StructVector entries = (StructVector) mv.getDataVector();
      int k = 0;
      for (Map.Entry<?, ?> e : new ArrayList<>(m.entrySet())) {
        entries.setIndexDefined(offset + k);
        key.set((FieldVector) entries.getChildByOrdinal(0), offset + k, e.getKey());
        value.set((FieldVector) entries.getChildByOrdinal(1), offset + k, e.getValue());
        k++;
      }
      mv.endValue(i, m.size());
    };
  }
}
