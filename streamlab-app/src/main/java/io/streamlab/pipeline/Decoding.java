package io.streamlab.pipeline;

import io.streamlab.udf.UdfLoader;
import java.io.Serializable;

/**
 * Settings of the pipeline's front stages (unbatch/decompress -> decode -> UDF). The transport
 * format stays in {@link IngestSettings#format()}; envelopes and their compression are recognised
 * per message from its header, so they need no setting.
 *
 * @param udf the user function applied to every decoded event (identity by default)
 */
public record Decoding(UdfLoader udf) implements Serializable {
  public static final Decoding DEFAULT = new Decoding(UdfLoader.IDENTITY);
}
