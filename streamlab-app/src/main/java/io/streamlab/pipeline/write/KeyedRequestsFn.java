package io.streamlab.pipeline.write;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
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
  /**
   * The last request of every key in this JVM, whichever DoFn instance sent it: a runner may hand
   * batches of one key to two bundles at once (the DirectRunner does), and a key still has at most
   * one request in flight.
   */
  private static final ConcurrentHashMap<String, CompletableFuture<Void>> LAST_REQUEST = new ConcurrentHashMap<>();

  private final String scope;
  private final BatchAppendFn writerTemplate;
  private final int maxRowsPerRequest;
  private final long maxBytesPerRequest;
  private final boolean autoSharded;

  private transient ConcurrentLinkedQueue<BatchAppendFn> idleWriters;
  private transient List<BatchAppendFn> allWriters;
  private transient ExecutorService requests;
  private transient List<CompletableFuture<Void>> bundleRequests;

  /**
   * @param scope names the table (keys of different tables are different keys)
   * @param maxBytesPerRequest JSON bytes of a request (STREAMING_INSERTS); Long.MAX_VALUE = rows only
   * @param autoSharded tell {@link AutoShards} whether requests queue behind their shard's previous one
   */
  KeyedRequestsFn(String scope, BatchAppendFn writerTemplate, int maxRowsPerRequest, long maxBytesPerRequest,
      boolean autoSharded) {
    this.scope = scope;
    this.autoSharded = autoSharded;
    this.writerTemplate = writerTemplate;
    this.maxRowsPerRequest = maxRowsPerRequest;
    this.maxBytesPerRequest = maxBytesPerRequest;
  }

  @Setup
  public void setup() throws Exception {
    idleWriters = new ConcurrentLinkedQueue<>();
    allWriters = java.util.Collections.synchronizedList(new ArrayList<>());
    // One writer now, not at the first request: its setup creates the table, and a run on a
    // Flink cluster counts ingestion ready only once the table exists (RemoteJobStatus), before
    // any event is sent; a lazy table would wait for rows that are never generated.
    idleWriters.add(newWriter());
    AtomicInteger n = new AtomicInteger();
    requests = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "streamlab-request-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    bundleRequests = new ArrayList<>();
  }

  @ProcessElement
  public void process(@Element KV<Integer, Iterable<Object>> batch) {
    Integer key = batch.getKey();
    for (List<Object> request : split(batch.getValue())) {
      // after the key's previous request, whatever its outcome (a failure is its own bundle's)
      bundleRequests.add(LAST_REQUEST.compute(scope + "#" + key, (k, previous) -> {
        boolean queued = previous != null && !previous.isDone();
        return (previous == null ? DONE : previous.handle((v, e) -> (Void) null))
            .thenRunAsync(() -> send(key, request, queued), requests);
      }));
    }
  }

  @FinishBundle
  public void finishBundle() throws Exception {
    Exception failure = null;
    for (CompletableFuture<Void> f : bundleRequests) {
      try {
        f.join();
      } catch (CompletionException e) {
        if (failure == null) failure = e.getCause() instanceof Exception x ? x : e;
      }
    }
    bundleRequests.clear();
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

  private void send(Integer key, List<Object> rows, boolean queued) {
    // told when the request leaves, not when it is queued: while a bundle waits on a long queue
    // of one shard no new batch arrives, and the count must still be able to grow
    if (autoSharded) AutoShards.observe(queued);
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
