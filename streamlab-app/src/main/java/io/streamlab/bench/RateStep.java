package io.streamlab.bench;

/**
 * One step of a max-rate search: the pipeline was fed {@code targetRate} for a step's length.
 *
 * @param backlogGrowth events behind at the end of the step minus at its start
 * @param sustained backlog growth within the bound and p99 under the limit
 */
public record RateStep(double targetRate, double generatedRate, double ingestedRate, long backlogGrowth,
    double p99Millis, double megabytesPerSecondPerCore, boolean sustained) {}
