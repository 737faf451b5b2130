package io.streamlab.schema;

import org.apache.avro.Schema;

/** Small questions every table store asks of a column's Avro schema. */
public final class AvroSchemas {
  private AvroSchemas() {}

  public static boolean nullable(Schema s) {
    return s.isUnion() && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL);
  }

  /** The non-null branch of a nullable union, or the schema itself. */
  public static Schema nonNull(Schema s) {
    if (!s.isUnion()) return s;
    var branches = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
    if (branches.size() != 1) throw new IllegalArgumentException("unions other than [null, T] have no column type: " + s);
    return branches.get(0);
  }
}
