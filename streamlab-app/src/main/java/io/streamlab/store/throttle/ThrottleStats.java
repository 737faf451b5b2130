package io.streamlab.store.throttle;

import io.streamlab.store.JvmShared;
import io.streamlab.store.quota.QuotaException;
import io.streamlab.store.quota.QuotaReason;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** What the writers of one table saw, as the sink benchmark reports it. */
public final class ThrottleStats {
  private final LongAdder requests = new LongAdder();
  private final LongAdder rowsWritten = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder failedAppends = new LongAdder();
  private final Map<QuotaReason, LongAdder> errors = new EnumMap<>(QuotaReason.class);
  private final LongAdder otherErrors = new LongAdder();
  private final AtomicLong firstAttemptNanos = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastWrittenNanos = new AtomicLong(Long.MIN_VALUE);

  ThrottleStats() {
    for (QuotaReason r : QuotaReason.values()) errors.put(r, new LongAdder());
  }

  static ThrottleStats shared(String tableKey) {
    return JvmShared.get(ThrottleStats.class, tableKey, ThrottleStats::new);
  }

  /** The figures of this table of this store, or null if nothing was written through a throttle. */
  public static ThrottleStats find(String storeId, String table) {
    return JvmShared.find(ThrottleStats.class, JvmShared.tableKey(storeId, table));
  }

  void attempt() {
    requests.increment();
    firstAttemptNanos.accumulateAndGet(System.nanoTime(), Math::min);
  }

  void written(int rows) {
    rowsWritten.add(rows);
    lastWrittenNanos.accumulateAndGet(System.nanoTime(), Math::max);
  }

  void error(Throwable e) {
    QuotaReason r = QuotaException.reasonOf(e);
    (r == null ? otherErrors : errors.get(r)).increment();
  }

  void retry() {
    retries.increment();
  }

  void failedAppend() {
    failedAppends.increment();
  }

  public long requests() { return requests.sum(); }
  public long rowsWritten() { return rowsWritten.sum(); }
  public long retries() { return retries.sum(); }
  /** Appends that threw: each fails a bundle, which the runner then retries. */
  public long failedAppends() { return failedAppends.sum(); }
  public long errors(QuotaReason r) { return errors.get(r).sum(); }
  public long otherErrors() { return otherErrors.sum(); }

  /** Errors by wire reason ("other" for errors that are not quota refusals). */
  public Map<String, Long> errorsByReason() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (QuotaReason r : QuotaReason.values()) m.put(r.wireName(), errors(r));
    m.put("other", otherErrors());
    return m;
  }

  /** From the first request sent to the last row written (the writers' wall time), seconds. */
  public double writerWallSeconds() {
    long first = firstAttemptNanos.get(), last = lastWrittenNanos.get();
    return last < first ? 0 : (last - first) / 1e9;
  }
}
