package io.streamlab.schema;

import java.util.HashSet;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Checks that an Avro schema is one streamlab can generate, carry in every format and store in a
 * table: a record root, unions only of the form [null, T], no recursion, no bare null. Schemas
 * from Thrift and JSON Schema are canonical by construction; a user's .avsc may not be.
 */
public final class CanonicalSchema {
  private CanonicalSchema() {}

  /** @throws IllegalArgumentException naming the field path of the first unsupported construct */
  public static Schema check(Schema schema, String where) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException(where + ": the event schema must be a record, not " + schema.getType());
    }
    check(schema, schema.getName(), new HashSet<>(), where);
    return schema;
  }

  private static void check(Schema s, String path, Set<String> inProgress, String where) {
    switch (s.getType()) {
      case RECORD -> {
        if (!inProgress.add(s.getFullName())) {
          throw new IllegalArgumentException(where + ": field '" + path + "': record " + s.getName() + " is recursive, which a table schema cannot hold");
        }
        if (s.getFields().isEmpty()) throw new IllegalArgumentException(where + ": field '" + path + "': a record without fields has no column type");
        for (Schema.Field f : s.getFields()) check(f.schema(), path + "." + f.name(), inProgress, where);
        inProgress.remove(s.getFullName());
      }
      case ARRAY -> check(s.getElementType(), path + "[]", inProgress, where);
      case MAP -> check(s.getValueType(), path + "{}", inProgress, where);
      case UNION -> {
        var nonNull = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
        if (nonNull.size() != 1 || s.getTypes().size() != 2) {
          throw new IllegalArgumentException(where + ": field '" + path + "': union " + s
              + " is not supported; only [\"null\", T] (a nullable T) maps to a column");
        }
        check(nonNull.get(0), path, inProgress, where);
      }
      case NULL -> throw new IllegalArgumentException(where + ": field '" + path + "': a field that can only be null has no column type");
      default -> { } // primitives, enum, fixed
    }
  }
}
