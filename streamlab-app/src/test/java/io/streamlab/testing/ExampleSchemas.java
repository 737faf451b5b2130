package io.streamlab.testing;

import io.streamlab.schema.SchemaLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;

/** The example schemas under the repository's schemas/ directory. */
public final class ExampleSchemas {
  public static final String SIMPLE_THRIFT = "simple_event.thrift";
  public static final String COMPOUND_AVRO = "compound_event.avsc";
  public static final String MESSAGE_JSON = "message_schema.json";
  public static final String DEFAULT_THRIFT = "simpler_compound_event.thrift";
  public static final List<String> ALL = List.of(SIMPLE_THRIFT, COMPOUND_AVRO, MESSAGE_JSON, DEFAULT_THRIFT);

  private ExampleSchemas() {}

  public static Path dir() {
    for (Path p : List.of(Path.of("schemas"), Path.of("../schemas"))) {
      if (Files.isDirectory(p)) return p.toAbsolutePath().normalize();
    }
    throw new IllegalStateException("schemas/ not found from " + Path.of("").toAbsolutePath());
  }

  public static Path path(String name) {
    return dir().resolve(name);
  }

  public static Schema load(String name) {
    return SchemaLoader.load(path(name), null);
  }
}
