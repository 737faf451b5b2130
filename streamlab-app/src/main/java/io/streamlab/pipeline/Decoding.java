package io.streamlab.pipeline;

import io.streamlab.formats.Compression;
import io.streamlab.formats.TransportFormat;
import io.streamlab.udf.UdfLoader;
import java.io.Serializable;

/**
 * Settings of the pipeline's front stages (unbatch/decompress -> decode -> UDF). The transport
 * format stays in {@link IngestSettings#format()}; envelopes and their compression are recognised
 * per message from its header, so they need no setting. The limits bound what one message may
 * cost: beyond any of them the message is one dead letter naming the limit and its flag.
 *
 * @param udf the user function applied to every decoded event (identity by default)
 * @param maxMessageBytes largest message (plain event or whole envelope) and largest event inside an envelope
 * @param maxEnvelopeEvents most events one envelope may hold (its {@code sl-count} and its body)
 * @param maxDecompressedBytes largest decompressed envelope body; a zstd/lz4 frame declaring more
 *     is refused before anything is allocated for it
 * @param maxNestingDepth deepest nesting of an unknown Thrift field or a JSON document
 */
public record Decoding(UdfLoader udf, int maxMessageBytes, int maxEnvelopeEvents, int maxDecompressedBytes,
    int maxNestingDepth) implements Serializable {
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 << 20;
  public static final int DEFAULT_MAX_ENVELOPE_EVENTS = 10_000;
  public static final int DEFAULT_MAX_DECOMPRESSED_BYTES = Compression.MAX_BODY_BYTES;
  public static final int DEFAULT_MAX_NESTING_DEPTH = TransportFormat.DEFAULT_MAX_NESTING_DEPTH;

  public static final Decoding DEFAULT = new Decoding(UdfLoader.IDENTITY);

  public Decoding {
    positive("--maxMessageBytes", maxMessageBytes);
    positive("--maxEnvelopeEvents", maxEnvelopeEvents);
    positive("--maxDecompressedBytes", maxDecompressedBytes);
    positive("--maxNestingDepth", maxNestingDepth);
  }

  /** This UDF and the default limits. */
  public Decoding(UdfLoader udf) {
    this(udf, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_ENVELOPE_EVENTS, DEFAULT_MAX_DECOMPRESSED_BYTES,
        DEFAULT_MAX_NESTING_DEPTH);
  }

  private static void positive(String flag, int value) {
    if (value < 1) throw new IllegalArgumentException(flag + " must be >= 1, got " + value);
  }
}
