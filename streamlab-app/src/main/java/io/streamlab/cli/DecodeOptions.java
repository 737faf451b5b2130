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

  Decoding toDecoding() {
    return new Decoding(new UdfLoader(udfClassName, udfJar == null ? null : udfJar.toAbsolutePath().toString()));
  }

  /** The same choices as flags, for a child process. */
  List<String> asArgs() {
    List<String> a = new ArrayList<>();
    if (udfClassName != null) a.add("--udfClassName=" + udfClassName);
    if (udfJar != null) a.add("--udfJar=" + udfJar.toAbsolutePath());
    return a;
  }
}
