package io.streamlab.cli;

import io.streamlab.pipeline.Decoding;
import io.streamlab.udf.UdfLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The pipeline's front stages: the user function. Shared by ingest and run. */
final class DecodeOptions {
  @Option(names = "--udfClassName", paramLabel = "CLASS",
      description = "User function applied to every decoded event: a class implementing "
          + "io.streamlab.udf.EventFunction with a public no-argument constructor. An event it throws on goes to "
          + "<table>_failed (stage udf). A class that cannot be loaded stops ingestion at start-up. Default: identity.")
  String udfClassName;

  @Option(names = "--udfJar", paramLabel = "JAR",
      description = "Jar holding --udfClassName. Default: none (the class is on streamlab's classpath).")
  Path udfJar;

  @Option(names = "--maxMessageBytes", defaultValue = "" + Decoding.DEFAULT_MAX_MESSAGE_BYTES, paramLabel = "BYTES",
      description = "Largest message (plain event or whole envelope), and largest event inside an envelope; a larger "
          + "one is one dead letter keeping its first 64 KB. Default: ${DEFAULT-VALUE} (16 MiB).")
  int maxMessageBytes;

  @Option(names = "--maxEnvelopeEvents", defaultValue = "" + Decoding.DEFAULT_MAX_ENVELOPE_EVENTS, paramLabel = "N",
      description = "Most events one envelope may hold (its body and its sl-count header); beyond, the envelope is "
          + "one dead letter. Default: ${DEFAULT-VALUE} (the generator puts 100 in one).")
  int maxEnvelopeEvents;

  @Option(names = "--maxDecompressedBytes", defaultValue = "" + Decoding.DEFAULT_MAX_DECOMPRESSED_BYTES, paramLabel = "BYTES",
      description = "Largest decompressed envelope body; a zstd/lz4 frame declaring more is refused before anything "
          + "is allocated, zlib is stopped as it grows past it. Default: ${DEFAULT-VALUE} (64 MiB).")
  int maxDecompressedBytes;

  @Option(names = "--maxNestingDepth", defaultValue = "" + Decoding.DEFAULT_MAX_NESTING_DEPTH, paramLabel = "N",
      description = "Deepest nesting of an unknown (skipped) Thrift field or of a JSON document; deeper is a dead "
          + "letter instead of a stack overflow. Default: ${DEFAULT-VALUE}.")
  int maxNestingDepth;

  Decoding toDecoding() {
    return new Decoding(new UdfLoader(udfClassName, udfJar == null ? null : udfJar.toAbsolutePath().toString()),
        maxMessageBytes, maxEnvelopeEvents, maxDecompressedBytes, maxNestingDepth);
  }

  /** The same choices as flags, for a child process. */
  List<String> asArgs() {
    List<String> a = new ArrayList<>();
    a.add("--maxMessageBytes=" + maxMessageBytes);
    a.add("--maxEnvelopeEvents=" + maxEnvelopeEvents);
    a.add("--maxDecompressedBytes=" + maxDecompressedBytes);
    a.add("--maxNestingDepth=" + maxNestingDepth);
    if (udfClassName != null) a.add("--udfClassName=" + udfClassName);
    if (udfJar != null) a.add("--udfJar=" + udfJar.toAbsolutePath());
    return a;
  }
}
