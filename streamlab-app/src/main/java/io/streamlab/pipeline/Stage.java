package io.streamlab.pipeline;

/**
 * The stages of the ingestion pipeline, in order, as the run report shows them (per-stage
 * throughput, wall time and element size). A stage a pipeline does not have stays at zero.
 */
public enum Stage {
  READ, UNBATCH, DECODE, UDF, CONVERT, SHUFFLE, WRITE;

  public String label() {
    return name().toLowerCase();
  }
}
