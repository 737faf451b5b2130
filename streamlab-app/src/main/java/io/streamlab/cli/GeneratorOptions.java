package io.streamlab.cli;

import io.streamlab.formats.Compression;
import io.streamlab.generator.GeneratorSettings;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How events are generated. Shared by generate and run. */
final class GeneratorOptions {
  @Option(names = "--ratePerSec", defaultValue = "10000",
      description = "Target events per second over all producers; 0 = as fast as possible. Default: ${DEFAULT-VALUE}.")
  double ratePerSec;

  @Option(names = "--producers", defaultValue = "2",
      description = "Producer threads, each with its own Kafka producer and producer id. Default: ${DEFAULT-VALUE}.")
  int producers;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed; same seed, same events. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--minStringLength", description = "Shortest generated string. Default: 20 (with the other defaults: ~1.1 KB SimplerCompoundEvents).")
  Integer minStringLength;

  @Option(names = "--maxStringLength", description = "Longest generated string. Default: 100.")
  Integer maxStringLength;

  @Option(names = "--maxSizeCollection", description = "Most elements in a generated list, set or map. Default: 5.")
  Integer maxSizeCollection;

  @Option(names = "--completeObjects", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Set every optional field (default); --no-completeObjects sets each half the time.")
  boolean completeObjects;

  @Option(names = "--fieldsWithSkew", split = ",", paramLabel = "FIELD",
      description = "Fields (comma-separated; dotted paths for nested fields, e.g. user.userId) whose values are "
          + "skewed: drawn from --skewBuckets fixed values with Zipf weights 1/rank^--skewDegree. Default: none.")
  List<String> fieldsWithSkew = new ArrayList<>();

  @Option(names = "--skewDegree", defaultValue = "1.0",
      description = "Zipf exponent of skewed fields: 0 = uniform over the buckets, higher = a few values dominate. Default: ${DEFAULT-VALUE}.")
  double skewDegree;

  @Option(names = "--skewBuckets", defaultValue = "10",
      description = "Distinct values of each skewed field. Default: ${DEFAULT-VALUE}.")
  int skewBuckets;

  @Option(names = "--compression", defaultValue = "NONE",
      description = "Batch --maxRecordsPerBatch events of a producer into one message compressed with "
          + "${COMPLETION-CANDIDATES} (header sl-envelope); NONE = one event per message. Ingestion recognises "
          + "envelopes by their header. Default: ${DEFAULT-VALUE}.")
  Compression compression;

  @Option(names = "--maxRecordsPerBatch", defaultValue = "100",
      description = "Events per envelope when --compression is not NONE. Default: ${DEFAULT-VALUE}.")
  int maxRecordsPerBatch;

  GeneratorSettings toSettings() {
    GeneratorSettings.Builder b = GeneratorSettings.builder().completeObjects(completeObjects)
        .fieldsWithSkew(fieldsWithSkew).skewDegree(skewDegree).skewBuckets(skewBuckets)
        .compression(compression).maxRecordsPerBatch(maxRecordsPerBatch);
    if (minStringLength != null) b.minStringLength(minStringLength);
    if (maxStringLength != null) b.maxStringLength(maxStringLength);
    if (maxSizeCollection != null) b.maxSizeCollection(maxSizeCollection);
    return b.build();
  }
}
