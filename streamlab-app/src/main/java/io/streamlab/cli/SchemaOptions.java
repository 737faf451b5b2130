package io.streamlab.cli;

import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SchemaLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import picocli.CommandLine.Option;

/** Which events: the schema file and the wire format. Shared by generate, ingest and run. */
final class SchemaOptions {
  @Option(names = "--schema", paramLabel = "FILE",
      description = "Event schema: Thrift IDL (.thrift), Avro (.avsc) or JSON Schema (.json). Default: the built-in "
          + "SimplerCompoundEvent (schemas/simpler_compound_event.thrift).")
  Path schema;

  @Option(names = "--thriftStruct", paramLabel = "NAME",
      description = "Root struct of a Thrift IDL. Default: the last struct in the file.")
  String thriftStruct;

  @Option(names = "--transportFormat", defaultValue = "THRIFT",
      description = "Payload encoding on the wire: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  TransportFormat transportFormat;

  Schema load() {
    return schema == null ? SchemaLoader.loadDefault() : SchemaLoader.load(schema, thriftStruct);
  }

  /** The same choices as flags, for a child process. */
  List<String> asArgs() {
    List<String> a = new ArrayList<>();
    if (schema != null) a.add("--schema=" + schema.toAbsolutePath());
    if (thriftStruct != null) a.add("--thriftStruct=" + thriftStruct);
    a.add("--transportFormat=" + transportFormat);
    return a;
  }
}
