package io.streamlab.cli;

import io.streamlab.generator.GeneratorSettings;
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

  @Option(names = "--minStringLength", description = "Shortest generated string. Default: the generator's (sized for ~1.1 KB events).")
  Integer minStringLength;

  @Option(names = "--maxStringLength", description = "Longest generated string. Default: the generator's.")
  Integer maxStringLength;

  @Option(names = "--maxSizeCollection", description = "Most elements in a generated list, set or map. Default: the generator's.")
  Integer maxSizeCollection;

  @Option(names = "--completeObjects", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Set every optional field (default); --no-completeObjects sets each half the time.")
  boolean completeObjects;

  GeneratorSettings toSettings() {
    GeneratorSettings.Builder b = GeneratorSettings.builder().completeObjects(completeObjects);
    if (minStringLength != null) b.minStringLength(minStringLength);
    if (maxStringLength != null) b.maxStringLength(maxStringLength);
    if (maxSizeCollection != null) b.maxSizeCollection(maxSizeCollection);
    return b.build();
  }
}
