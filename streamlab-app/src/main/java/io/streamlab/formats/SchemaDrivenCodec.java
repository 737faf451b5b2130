package io.streamlab.formats;

import org.apache.avro.Schema;

/**
 * Base of the codecs: keeps the schema as its JSON text (Avro schemas are not Serializable, and
 * a Beam DoFn carries its codec to the workers) and the form compiled from it, rebuilt lazily
 * after deserialization.
 *
 * @param <C> what the codec compiles the schema into
 */
abstract class SchemaDrivenCodec<C> implements PayloadCodec {
  private final String schemaJson;
  private transient C compiled;

  SchemaDrivenCodec(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException(getClass().getSimpleName() + " needs a record schema, not " + schema.getType());
    }
    this.schemaJson = schema.toString();
    this.compiled = compile(schema);
  }

  /** Called once per instance (and once more after deserialization); must not use instance fields. */
  abstract C compile(Schema schema);

  final C compiled() {
    if (compiled == null) compiled = compile(new Schema.Parser().parse(schemaJson));
    return compiled;
  }
}
