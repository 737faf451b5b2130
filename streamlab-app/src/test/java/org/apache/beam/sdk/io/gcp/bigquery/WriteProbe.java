package org.apache.beam.sdk.io.gcp.bigquery;

import org.joda.time.Duration;

/**
 * Reads a BigQueryIO.Write's configuration, which BigQueryIO keeps package-private, so tests can
 * assert what streamlab configured rather than what it meant to. Lives in BigQueryIO's package for
 * that reason only (test classpath, no production use).
 */
public final class WriteProbe {
  private final BigQueryIO.Write<?> w;

  public WriteProbe(BigQueryIO.Write<?> w) {
    this.w = w;
  }

  public BigQueryIO.Write.Method method() { return w.getMethod(); }
  public boolean autoSharding() { return w.getAutoSharding(); }
  public Duration triggeringFrequency() { return w.getTriggeringFrequency(); }
  public int numStorageWriteApiStreams() { return w.getNumStorageWriteApiStreams(); }
  public BigQueryIO.Write.CreateDisposition createDisposition() { return w.getCreateDisposition(); }
  public BigQueryIO.Write.WriteDisposition writeDisposition() { return w.getWriteDisposition(); }
  public String jsonSchema() { return w.getJsonSchema() == null ? null : w.getJsonSchema().get(); }
  public String table() { return w.getJsonTableRef() == null ? null : w.getJsonTableRef().get(); }
  public boolean useBeamSchema() { return w.getUseBeamSchema(); }
  public boolean hasTableRowFormatFunction() { return w.getFormatFunction() != null; }
  public boolean hasAvroFormatFunction() { return w.getAvroRowWriterFactory() != null; }
  public InsertRetryPolicy failedInsertRetryPolicy() { return w.getFailedInsertRetryPolicy(); }
  public boolean extendedErrorInfo() { return w.getExtendedErrorInfo(); }

  /** The insert id the write gives {@code element}, or null when BigQueryIO picks a random one. */
  @SuppressWarnings("unchecked")
  public String insertId(Object element) {
    var fn = (org.apache.beam.sdk.transforms.SerializableFunction<Object, String>) w.getDeterministicRecordIdFn();
    return fn == null ? null : fn.apply(element);
  }
}
