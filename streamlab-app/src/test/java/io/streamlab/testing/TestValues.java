package io.streamlab.testing;

import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * One comparable form for a value, whichever side it came from (an Avro record a codec made, or
 * a JDBC value read back from a table): records and maps become sorted maps, lists and sets
 * lists, strings and enum symbols Strings, bytes hex strings. Two events are equal when their
 * normalized forms are.
 */
public final class TestValues {
  private TestValues() {}

  /** The event fields of the result set's current row, normalized, by field name. */
  public static Map<String, Object> eventColumns(java.sql.ResultSet rs, org.apache.avro.Schema event) throws SQLException {
    Map<String, Object> m = new TreeMap<>();
    for (var f : event.getFields()) m.put(f.name(), normalize(rs.getObject(f.name())));
    return m;
  }

  public static Object normalize(Object v) {
    try {
      return norm(v);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object norm(Object v) throws SQLException {
    if (v == null) return null;
    if (v instanceof IndexedRecord r) {
      Map<String, Object> m = new TreeMap<>();
      for (var f : r.getSchema().getFields()) m.put(f.name(), norm(r.get(f.pos())));
      return m;
    }
    if (v instanceof CharSequence || v instanceof GenericEnumSymbol<?>) return v.toString();
    if (v instanceof ByteBuffer b) {
      byte[] a = new byte[b.remaining()];
      b.duplicate().get(a);
      return HexFormat.of().formatHex(a);
    }
    if (v instanceof GenericFixed f) return HexFormat.of().formatHex(f.bytes());
    if (v instanceof byte[] a) return HexFormat.of().formatHex(a);
    if (v instanceof Blob b) return HexFormat.of().formatHex(b.getBytes(1, (int) b.length()));
    if (v instanceof Array a) return norm(a.getArray());
    if (v instanceof Object[] a) {
      List<Object> l = new ArrayList<>();
      for (Object o : a) l.add(norm(o));
      return l;
    }
    if (v instanceof Collection<?> c) {
      List<Object> l = new ArrayList<>();
      for (Object o : c) l.add(norm(o));
      return l;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new TreeMap<>();
      for (var e : m.entrySet()) out.put(e.getKey().toString(), norm(e.getValue()));
      return out;
    }
    if (v instanceof java.sql.Struct s) {
      // DuckDB's struct: its map view keeps the field names
      if (v.getClass().getName().equals("org.duckdb.DuckDBStruct")) {
        try {
          return norm(v.getClass().getMethod("getMap").invoke(v));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      return norm(s.getAttributes());
    }
    return v; // Integer, Long, Float, Double, Boolean
  }
}
