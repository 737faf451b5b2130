package io.streamlab.cli;

import io.streamlab.formats.TransportFormat;
import io.streamlab.schema.SchemaLoader;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** Which events: the schema file and the wire format. Shared by generate, ingest, run and sinkbench. */
public interface SchemaOptions extends PipelineOptions {
  @Description("Event schema: Thrift IDL (.thrift), Avro (.avsc) or JSON Schema (.json). Default: the built-in "
      + "SimplerCompoundEvent (schemas/simpler_compound_event.thrift).")
  String getSchema();
  void setSchema(String value);

  @Description("Root struct of a Thrift IDL. Default: the last struct in the file.")
  String getThriftStruct();
  void setThriftStruct(String value);

  @Description("Payload encoding on the wire.")
  @Default.Enum("THRIFT")
  TransportFormat getTransportFormat();
  void setTransportFormat(TransportFormat value);

  static Schema load(SchemaOptions o) {
    return o.getSchema() == null ? SchemaLoader.loadDefault() : SchemaLoader.load(Path.of(o.getSchema()), o.getThriftStruct());
  }
}
