package io.streamlab.formats;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Factory;

/**
 * How an {@link Envelope} body is compressed. ZLIB is what the original suite used; ZSTD and LZ4
 * trade ratio for speed. Decompression refuses bodies that would grow past {@link #MAX_BODY_BYTES},
 * so a corrupt or hostile length cannot exhaust the heap.
 */
public enum Compression {
  NONE {
    @Override
    public byte[] compress(byte[] body) {
      return body;
    }

    @Override
    public byte[] decompress(byte[] data, int maxBytes) {
      if (data.length > maxBytes) throw new TooLargeException("body of " + data.length + " bytes", maxBytes);
      return data;
    }
  },
  ZLIB {
    @Override
    public byte[] compress(byte[] body) {
      Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION);
      try {
        d.setInput(body);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 3));
        byte[] chunk = new byte[16 << 10];
        while (!d.finished()) out.write(chunk, 0, d.deflate(chunk));
        return out.toByteArray();
      } finally {
        d.end();
      }
    }

    @Override
    public byte[] decompress(byte[] data, int maxBytes) {
      Inflater inf = new Inflater();
      try {
        inf.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(maxBytes, data.length * 4L));
        byte[] chunk = new byte[16 << 10];
        while (!inf.finished()) {
          int n = inf.inflate(chunk);
          if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
            throw new IllegalArgumentException("zlib data truncated");
          }
          out.write(chunk, 0, n);
          if (out.size() > maxBytes) throw new TooLargeException("zlib body", maxBytes);
        }
        return out.toByteArray();
      } catch (DataFormatException e) {
        throw new IllegalArgumentException("not zlib data: " + e.getMessage(), e);
      } finally {
        inf.end();
      }
    }
  },
  ZSTD {
    @Override
    public byte[] compress(byte[] body) {
      return Zstd.compress(body, 3);
    }

    @Override
    public byte[] decompress(byte[] data, int maxBytes) {
      // the frame's declared size is checked before anything is allocated for it
      long size = Zstd.getFrameContentSize(data);
      if (size < 0) throw new IllegalArgumentException("not a zstd frame of known size (" + size + ")");
      if (size > maxBytes) throw new TooLargeException("zstd frame declaring " + size + " bytes", maxBytes);
      byte[] out = new byte[(int) size];
      long n = Zstd.decompressByteArray(out, 0, out.length, data, 0, data.length);
      if (Zstd.isError(n)) throw new IllegalArgumentException("zstd: " + Zstd.getErrorName(n));
      if (n != size) throw new IllegalArgumentException("zstd frame gave " + n + " of " + size + " bytes");
      return out;
    }
  },
  /** LZ4 block format preceded by the 4-byte uncompressed length (the block format has none). */
  LZ4 {
    @Override
    public byte[] compress(byte[] body) {
      var c = LZ4Factory.fastestInstance().fastCompressor();
      byte[] out = new byte[4 + c.maxCompressedLength(body.length)];
      ByteBuffer.wrap(out).putInt(body.length);
      int n = c.compress(body, 0, body.length, out, 4, out.length - 4);
      return java.util.Arrays.copyOf(out, 4 + n);
    }

    @Override
    public byte[] decompress(byte[] data, int maxBytes) {
      if (data.length < 4) throw new IllegalArgumentException("lz4 data shorter than its length prefix");
      int size = ByteBuffer.wrap(data).getInt();
      if (size < 0) throw new IllegalArgumentException("lz4 length prefix out of range: " + size);
      if (size > maxBytes) throw new TooLargeException("lz4 block declaring " + size + " bytes", maxBytes);
      byte[] out = new byte[size];
      try {
        int read = LZ4Factory.fastestInstance().fastDecompressor().decompress(data, 4, out, 0, size);
        if (read != data.length - 4) throw new IllegalArgumentException("lz4 block has " + (data.length - 4 - read) + " trailing bytes");
      } catch (net.jpountz.lz4.LZ4Exception e) {
        throw new IllegalArgumentException("not lz4 data: " + e.getMessage(), e);
      }
      return out;
    }
  };

  /** Default bound on a decompressed envelope body ({@code --maxDecompressedBytes}). */
  public static final int MAX_BODY_BYTES = 64 << 20;

  public abstract byte[] compress(byte[] body);

  /** {@link #decompress(byte[], int)} with the default bound {@link #MAX_BODY_BYTES}. */
  public byte[] decompress(byte[] data) {
    return decompress(data, MAX_BODY_BYTES);
  }

  /**
   * @param maxBytes the largest body accepted; a frame that declares more is refused before its
   *     buffer is allocated, and a zlib stream is stopped as soon as it grows past it
   * @throws IllegalArgumentException when the data is not of this compression or is corrupt
   * @throws TooLargeException when the body is (or claims to be) larger than {@code maxBytes}
   */
  public abstract byte[] decompress(byte[] data, int maxBytes);

  /** Input beyond a documented limit (not corrupt as such): the cause names the limit and its flag. */
  public static final class TooLargeException extends IllegalArgumentException {
    public TooLargeException(String what, long limit) {
      super(what + " exceeds the limit of " + limit + " bytes (--maxDecompressedBytes)");
    }
  }

  /** The header value naming this compression (lower case, as on the command line). */
  public String headerValue() {
    return name().toLowerCase();
  }

  /** @throws IllegalArgumentException naming the value when no compression has that name */
  public static Compression fromHeaderValue(String value) {
    for (Compression c : values()) if (c.headerValue().equalsIgnoreCase(value)) return c;
    throw new IllegalArgumentException("unknown envelope compression '" + value + "'");
  }
}
