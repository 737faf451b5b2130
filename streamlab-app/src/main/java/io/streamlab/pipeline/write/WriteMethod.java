package io.streamlab.pipeline.write;

/**
 * How rows reach the table; names follow Beam's BigQueryIO, semantics as BigQuery defines them
 * (see docs/DESIGN.md, "Write methods").
 */
public enum WriteMethod {
  /** JSON rows reshuffled onto keys, inserted in bounded requests; at-least-once, best-effort dedup by insert id. */
  STREAMING_INSERTS,
  /** Typed rows shuffled into shards, batched, each batch an atomic insert-or-ignore: exactly-once. */
  STORAGE_WRITE_API,
  /** Typed rows appended straight from the reading stage, no shuffle: at-least-once. */
  STORAGE_API_AT_LEAST_ONCE;

  /** Whether the table is keyed on the event identity and every append is insert-or-ignore. */
  public boolean exactlyOnce() {
    return this == STORAGE_WRITE_API;
  }
}
