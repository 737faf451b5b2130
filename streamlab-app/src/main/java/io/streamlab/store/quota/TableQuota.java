package io.streamlab.store.quota;

import io.streamlab.store.JvmShared;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One table's quota, shared by all its writers in this JVM: admits a request or refuses it with
 * the reason a warehouse would give, and counts both. Checks run cheapest and most permanent
 * first: an oversized request is {@code invalid}; too many in flight is
 * {@code rateLimitExceeded}; then the seeded transient failure; then the rows/s and bytes/s
 * buckets ({@code quotaExceeded}), which take tokens only when both have enough.
 */
public final class TableQuota {
  private final QuotaLimits limits;
  private final TokenBucket rows;
  private final TokenBucket bytes;
  private final Semaphore inFlight;
  private final Random failures;
  private final LongAdder acceptedRequests = new LongAdder();
  private final LongAdder acceptedRows = new LongAdder();
  private final LongAdder acceptedBytes = new LongAdder();
  private final Map<QuotaReason, LongAdder> refused = new EnumMap<>(QuotaReason.class);

  public TableQuota(QuotaLimits limits, LongSupplier nanoTime) {
    this.limits = limits;
    // Burst: one second's worth, but at least one full request, or a maximal request could never pass.
    rows = limits.rowsPerSec() == 0 ? null
        : new TokenBucket(limits.rowsPerSec(), Math.max(limits.rowsPerSec(), limits.maxRowsPerRequest()), nanoTime);
    bytes = limits.bytesPerSec() == 0 ? null
        : new TokenBucket(limits.bytesPerSec(), Math.max(limits.bytesPerSec(), limits.maxBytesPerRequest()), nanoTime);
    inFlight = limits.maxConcurrentRequests() == 0 ? null : new Semaphore(limits.maxConcurrentRequests());
    failures = new Random(limits.seed());
    for (QuotaReason r : QuotaReason.values()) refused.put(r, new LongAdder());
  }

  /** The quota of this table of this store in this JVM (created with these limits on first use). */
  public static TableQuota shared(String storeId, String table, QuotaLimits limits) {
    return JvmShared.get(TableQuota.class, JvmShared.tableKey(storeId, table),
        () -> new TableQuota(limits, System::nanoTime));
  }

  /** The quota of this table if one was created, else null. */
  public static TableQuota find(String storeId, String table) {
    return JvmShared.find(TableQuota.class, JvmShared.tableKey(storeId, table));
  }

  public QuotaLimits limits() {
    return limits;
  }

  /**
   * Admits one request or throws; an admitted request must be ended with {@link #release}.
   */
  public void admit(int rowCount, long byteCount) throws QuotaException {
    if (limits.maxRowsPerRequest() > 0 && rowCount > limits.maxRowsPerRequest()) {
      throw refuse(QuotaReason.INVALID, rowCount + " rows in one request, limit " + limits.maxRowsPerRequest());
    }
    if (limits.maxBytesPerRequest() > 0 && byteCount > limits.maxBytesPerRequest()) {
      throw refuse(QuotaReason.INVALID, byteCount + " bytes in one request, limit " + limits.maxBytesPerRequest());
    }
    if (inFlight != null && !inFlight.tryAcquire()) {
      throw refuse(QuotaReason.RATE_LIMIT_EXCEEDED,
          "more than " + limits.maxConcurrentRequests() + " concurrent requests");
    }
    boolean admitted = false;
    try {
      if (limits.transientFailureRate() > 0 && nextFailure()) {
        throw refuse(QuotaReason.BACKEND_ERROR, "transient failure (injected, rate " + limits.transientFailureRate() + ")");
      }
      if (rows != null && !rows.tryTake(rowCount)) {
        throw refuse(QuotaReason.QUOTA_EXCEEDED, "table rows per second (" + limits.rowsPerSec() + ")");
      }
      if (bytes != null && !bytes.tryTake(byteCount)) {
        if (rows != null) rows.giveBack(rowCount);
        throw refuse(QuotaReason.QUOTA_EXCEEDED, "table bytes per second (" + limits.bytesPerSec() + ")");
      }
      admitted = true;
    } finally {
      if (!admitted && inFlight != null) inFlight.release();
    }
  }

  /** Ends an admitted request; {@code written} says whether its rows reached the table. */
  public void release(int rowCount, long byteCount, boolean written) {
    if (inFlight != null) inFlight.release();
    if (written) {
      acceptedRequests.increment();
      acceptedRows.add(rowCount);
      acceptedBytes.add(byteCount);
    }
  }

  private synchronized boolean nextFailure() {
    return failures.nextDouble() < limits.transientFailureRate();
  }

  private QuotaException refuse(QuotaReason reason, String message) {
    refused.get(reason).increment();
    return new QuotaException(reason, message);
  }

  public long acceptedRequests() { return acceptedRequests.sum(); }
  public long acceptedRows() { return acceptedRows.sum(); }
  public long acceptedBytes() { return acceptedBytes.sum(); }
  public long refused(QuotaReason reason) { return refused.get(reason).sum(); }
}
