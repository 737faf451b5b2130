package io.streamlab.cli;

import io.streamlab.pipeline.Decoding;
import io.streamlab.udf.UdfLoader;
import java.nio.file.Path;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The pipeline's front stages: the user function and the limits on one message. Shared by ingest and run. */
public interface DecodeOptions extends PipelineOptions {
  @Description("User function applied to every decoded event: a class implementing io.streamlab.udf.EventFunction "
      + "with a public no-argument constructor. An event it throws on goes to <table>_failed (stage udf). A class "
      + "that cannot be loaded stops ingestion at start-up. Default: identity.")
  String getUdfClassName();
  void setUdfClassName(String value);

  @Description("Jar holding --udfClassName. Default: none (the class is on streamlab's classpath).")
  String getUdfJar();
  void setUdfJar(String value);

  @Description("Largest message (plain event or whole envelope), and largest event inside an envelope, in bytes; a "
      + "larger one is one dead letter keeping its first 64 KB (default: 16 MiB).")
  @Default.Integer(Decoding.DEFAULT_MAX_MESSAGE_BYTES)
  int getMaxMessageBytes();
  void setMaxMessageBytes(int value);

  @Description("Most events one envelope may hold (its body and its sl-count header); beyond, the envelope is one "
      + "dead letter (the generator puts 100 in one).")
  @Default.Integer(Decoding.DEFAULT_MAX_ENVELOPE_EVENTS)
  int getMaxEnvelopeEvents();
  void setMaxEnvelopeEvents(int value);

  @Description("Largest decompressed envelope body, in bytes; a zstd/lz4 frame declaring more is refused before "
      + "anything is allocated, zlib is stopped as it grows past it (default: 64 MiB).")
  @Default.Integer(Decoding.DEFAULT_MAX_DECOMPRESSED_BYTES)
  int getMaxDecompressedBytes();
  void setMaxDecompressedBytes(int value);

  @Description("Deepest nesting of an unknown (skipped) Thrift field or of a JSON document; deeper is a dead letter "
      + "instead of a stack overflow.")
  @Default.Integer(Decoding.DEFAULT_MAX_NESTING_DEPTH)
  int getMaxNestingDepth();
  void setMaxNestingDepth(int value);

  static Decoding toDecoding(DecodeOptions o) {
    String jar = o.getUdfJar() == null ? null : Path.of(o.getUdfJar()).toAbsolutePath().toString();
    return new Decoding(new UdfLoader(o.getUdfClassName(), jar), o.getMaxMessageBytes(), o.getMaxEnvelopeEvents(),
        o.getMaxDecompressedBytes(), o.getMaxNestingDepth());
  }
}
