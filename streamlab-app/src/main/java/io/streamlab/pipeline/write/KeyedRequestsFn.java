package io.streamlab.pipeline.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.values.KV;

/**
 * Sends the batches of a keyed grouping as table requests: a key's requests go out one after
 * another (at most one in flight per key, as a key's batches are written in order by the worker
 * that owns the key), requests of different keys overlap (while one key waits on its round trip
 * the worker serves the others), and every request of a bundle has completed when the bundle
 * ends, so a checkpoint never completes with a request still in flight. The write concurrency
 * is therefore the number of keys (or shards) with work, as against BigQuery.
 *
 * <p>Each concurrent request uses a writer of its own ({@link BatchAppendFn}: conversion back to
 * table records, insert-id dedup, retries, dead letters), kept for the next request.
 */
final class KeyedRequestsFn extends DoFn<KV<Integer, Iterable<Object>>, Void> {
  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final BatchAppendFn writerTemplate;
  private final int maxRowsPerRequest;
  private final long maxBytesPerRequest;
  private final boolean autoSharded;

  private transient ConcurrentLinkedQueue<BatchAppendFn> idleWriters;
  private transient List<BatchAppendFn> allWriters;
  private transient ExecutorService requests;
  private transient Map<Integer, CompletableFuture<Void>> lastRequestOfKey;

  /**
   * @param maxBytesPerRequest JSON bytes of a request (STREAMING_INSERTS); Long.MAX_VALUE = rows only
   * @param autoSharded tell {@link AutoShards} whether batches leave full
   */
  KeyedRequestsFn(BatchAppendFn writerTemplate, int maxRowsPerRequest, long maxBytesPerRequest, boolean autoSharded) {
    this.autoSharded = autoSharded;
    this.writerTemplate = writerTemplate;
    this.maxRowsPerRequest = maxRowsPerRequest;
    this.maxBytesPerRequest = maxBytesPerRequest;
  }

  @Setup
  public void setup() {
    idleWriters = new ConcurrentLinkedQueue<>();
    allWriters = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicInteger n = new AtomicInteger();
    requests = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "streamlab-request-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    lastRequestOfKey = new HashMap<>();
  }

  @ProcessElement
  public void process(@Element KV<Integer, Iterable<Object>> batch) {
    Integer key = batch.getKey();
    CompletableFuture<Void> last = lastRequestOfKey.getOrDefault(key, DONE);
    for (List<Object> request : split(batch.getValue())) {
      if (autoSharded) AutoShards.observe(request.size() >= maxRowsPerRequest);
      last = last.thenRunAsync(() -> send(key, request), requests);
    }
    lastRequestOfKey.put(key, last);
  }

  @FinishBundle
  public void finishBundle() throws Exception {
    Exception failure = null;
    for (CompletableFuture<Void> f : lastRequestOfKey.values()) {
      try {
        f.join();
      } catch (CompletionException e) {
        if (failure == null) failure = e.getCause() instanceof Exception x ? x : e;
      }
    }
    lastRequestOfKey.clear();
    if (failure != null) throw failure; // the runner retries the bundle
  }

  private List<List<Object>> split(Iterable<Object> rows) {
    List<List<Object>> out = new ArrayList<>();
    List<Object> current = new ArrayList<>();
    long bytes = 0;
    for (Object row : rows) {
      long size = maxBytesPerRequest == Long.MAX_VALUE ? 0 : ((String) row).length();
      if (!current.isEmpty() && (current.size() >= maxRowsPerRequest || bytes + size > maxBytesPerRequest)) {
        out.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(row);
      bytes += size;
    }
    if (!current.isEmpty()) out.add(current);
    return out;
  }

  private void send(Integer key, List<Object> rows) {
    WriteStats stats = WriteStats.get();
    stats.requestStarted(key);
    BatchAppendFn writer = idleWriters.poll();
    try {
      if (writer == null) writer = newWriter();
      writer.write(rows);
    } catch (Exception e) {
      throw new CompletionException(e);
    } finally {
      if (writer != null) idleWriters.add(writer);
      stats.requestEnded();
    }
  }

  private BatchAppendFn newWriter() throws Exception {
    BatchAppendFn w = SerializableUtils.clone(writerTemplate);
    w.setup();
    allWriters.add(w);
    return w;
  }

  @Teardown
  public void teardown() throws Exception {
    if (requests != null) requests.shutdownNow();
    if (allWriters == null) return;
    synchronized (allWriters) {
      for (BatchAppendFn w : allWriters) w.teardown();
    }
  }
}
