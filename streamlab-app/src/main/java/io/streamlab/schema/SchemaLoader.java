package io.streamlab.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/** Loads an event schema file of any supported kind into the canonical Avro schema. */
public final class SchemaLoader {
  /** The built-in SimplerCompoundEvent, also under schemas/ in the repository. */
  public static final String DEFAULT_SCHEMA_RESOURCE = "/schemas/simpler_compound_event.thrift";

  private SchemaLoader() {}

  /**
   * @param rootStruct the Thrift root struct (null = last struct of the file); ignored for Avro and JSON Schema
   * @throws IllegalArgumentException with a message naming the file for anything wrong
   */
  public static Schema load(Path file, String rootStruct) {
    if (!Files.isRegularFile(file)) throw new IllegalArgumentException("schema file not found: " + file);
    String name = file.getFileName().toString().toLowerCase();
    if (name.endsWith(".thrift")) return CanonicalSchema.check(ThriftIdl.parse(file, rootStruct), file.toString());
    if (name.endsWith(".avsc")) {
      try {
        Schema s = new Schema.Parser().parse(file.toFile());
        return CanonicalSchema.check(s, file.toString());
      } catch (IOException | SchemaParseException e) {
        throw new IllegalArgumentException(file + ": not a valid Avro schema: " + e.getMessage());
      }
    }
    if (name.endsWith(".json")) return CanonicalSchema.check(JsonSchemaTranslator.translate(file), file.toString());
    throw new IllegalArgumentException(file + ": unknown schema kind; use a Thrift IDL (.thrift), an Avro schema (.avsc) "
        + "or a JSON Schema (.json)");
  }

  /** The built-in SimplerCompoundEvent schema, read from the classpath. */
  public static Schema loadDefault() {
    try (InputStream in = SchemaLoader.class.getResourceAsStream(DEFAULT_SCHEMA_RESOURCE)) {
      if (in == null) throw new IllegalStateException("built-in schema missing from the jar: " + DEFAULT_SCHEMA_RESOURCE);
      Path tmp = Files.createTempFile("streamlab-schema", ".thrift");
      try {
        Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return ThriftIdl.parse(tmp, "SimplerCompoundEvent");
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the built-in schema", e);
    }
  }
}
