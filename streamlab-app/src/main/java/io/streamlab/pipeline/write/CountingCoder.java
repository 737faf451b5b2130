package io.streamlab.pipeline.write;

import io.streamlab.pipeline.IngestMetrics;
import io.streamlab.pipeline.Stage;
import java.io.FilterOutputStream;
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
    Counting counting = new Counting(out);
    delegate.encode(value, counting, context);
    IngestMetrics.get().recordShuffled(counting.count);
    IngestMetrics.get().stage(Stage.SHUFFLE).record(1, counting.count, 0);
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

  private static final class Counting extends FilterOutputStream {
    long count;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }
}
