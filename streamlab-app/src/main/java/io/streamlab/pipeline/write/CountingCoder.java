package io.streamlab.pipeline.write;

import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StructuredCoder;

/**
 * Wraps the coder of a shuffled collection and counts the bytes it encodes: what the runner
 * serializes to move elements between workers, i.e. the bytes passed through the shuffle
 * (reported beside bytes read from the broker).
 *
 * <p>The element is encoded into a per-thread buffer and handed on in one write: Avro's encoder
 * writes varints a byte at a time, and each byte passing through a counting wrapper and then the
 * runner's stream wrappers cost ~10 % of a STORAGE_WRITE_API drain (JFR).
 */
final class CountingCoder<T> extends StructuredCoder<T> {
  private final Coder<T> delegate;

  CountingCoder(Coder<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public void encode(T value, OutputStream out) throws IOException {
    encode(value, out, Context.NESTED);
  }

  @Override
  @SuppressWarnings("deprecation")
  public void encode(T value, OutputStream out, Context context) throws IOException {
    Buffer buffer = BUFFER.get();
    buffer.count = 0;
    delegate.encode(value, buffer, context);
    out.write(buffer.bytes, 0, buffer.count);
    IngestMetrics.get().recordShuffled(buffer.count);
    IngestMetrics.get().stage(Stage.SHUFFLE).record(1, buffer.count, 0);
  }

  @Override
  public T decode(InputStream in) throws IOException {
    return delegate.decode(in);
  }

  @Override
  @SuppressWarnings("deprecation")
  public T decode(InputStream in, Context context) throws IOException {
    return delegate.decode(in, context);
  }

  @Override
  public List<? extends Coder<?>> getCoderArguments() {
    return List.of(delegate);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    delegate.verifyDeterministic();
  }

  private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

  /** A growable byte array, unsynchronized (unlike ByteArrayOutputStream), reused per thread. */
  private static final class Buffer extends OutputStream {
    byte[] bytes = new byte[8 << 10];
    int count;

    @Override
    public void write(int b) {
      if (count == bytes.length) grow(1);
      bytes[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (count + len > bytes.length) grow(len);
      System.arraycopy(b, off, bytes, count, len);
      count += len;
    }

    private void grow(int needed) {
      bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, count + needed));
    }
  }
}
