package io.streamlab.store.model;

import io.streamlab.store.TableWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.generic.GenericRecord;

/**
 * Group commit of one table's modelled requests in this JVM: requests that reach the store while
 * a store transaction is running (each during its own round trip, see {@link RoundTripStore}) are
 * appended together in the next one. A remote
 * warehouse serves each request on its own servers, so a client's CPU does not grow with the
 * number of requests it keeps in flight; a local store pays a transaction per append, and
 * without this the model would make many small requests (512 keys, one row each) cost this
 * machine's CPU what they cost BigQuery's servers, which is not what the study measured.
 *
 * <p>No leader thread of its own: the first waiting request appends
 * everything queued through its own writer (each request thread holds a writer, so the writer
 * used is always open), and the others wait for that transaction. A request still returns only
 * once its rows are in the table, with the write time stamped on them. If a combined append
 * fails, each request of it is appended alone, so a failure (a collision, a refused row, a quota
 * error) reaches only the request it belongs to, exactly as without grouping.
 */
final class GroupCommit {
  private static final ConcurrentHashMap<String, GroupCommit> TABLES = new ConcurrentHashMap<>();

  private final List<Pending> queue = new ArrayList<>();
  private boolean committing;

  /** The group of one table of one store, opened plain or keyed (they append differently). */
  static GroupCommit of(String storeId, String table, boolean keyed) {
    return TABLES.computeIfAbsent(storeId + "/" + table + (keyed ? "#keyed" : ""), k -> new GroupCommit());
  }

  private static final class Pending {
    final List<GenericRecord> records;
    boolean done;
    long writeTime;
    Exception failure;

    Pending(List<GenericRecord> records) {
      this.records = records;
    }
  }

  /**
   * Appends {@code records} in the next transaction of this table, which {@code writer} may run
   * for every request then waiting.
   *
   * @return the write time stamped on the records
   */
  long append(List<GenericRecord> records, TableWriter writer) throws Exception {
    Pending mine = new Pending(records);
    List<Pending> group;
    synchronized (this) {
      queue.add(mine);
      try {
        while (committing && !mine.done) wait();
      } catch (InterruptedException e) {
        queue.remove(mine); // not yet taken: its rows are not appended (if taken, they may be)
        throw e;
      }
      if (mine.done) return result(mine);
      committing = true;
      group = new ArrayList<>(queue);
      queue.clear();
    }
    try {
      commit(group, writer);
    } finally {
      synchronized (this) {
        // an Error out of the writer: the requests it left unanswered fail instead of waiting,
        // or returning as if appended once a later leader wakes them
        for (Pending p : group) {
          if (!p.done) {
            p.failure = new IllegalStateException("the group's append did not finish");
            p.done = true;
          }
        }
        committing = false;
        notifyAll();
      }
    }
    return result(mine);
  }

  /** Requests waiting for a transaction (tests). */
  synchronized int queued() {
    return queue.size();
  }

  private static long result(Pending p) throws Exception {
    if (p.failure != null) throw p.failure;
    return p.writeTime;
  }

  private void commit(List<Pending> group, TableWriter writer) {
    ModelStats.get().transaction();
    if (group.size() > 1) {
      List<GenericRecord> all = new ArrayList<>();
      for (Pending p : group) all.addAll(p.records);
      try {
        long writeTime = writer.append(all);
        finish(group, writeTime, null);
        return;
      } catch (Exception e) {
        // appended alone below, so the failure reaches only the requests it belongs to
      }
    }
    for (Pending p : group) {
      try {
        finish(List.of(p), writer.append(p.records), null);
      } catch (Exception e) {
        finish(List.of(p), 0, e);
      }
    }
  }

  private synchronized void finish(List<Pending> done, long writeTime, Exception failure) {
    for (Pending p : done) {
      p.writeTime = writeTime;
      p.failure = failure;
      p.done = true;
    }
    notifyAll();
  }
}
