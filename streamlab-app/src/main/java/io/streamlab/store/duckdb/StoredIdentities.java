package io.streamlab.store.duckdb;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;

/**
 * Which of a batch's identities (producer id, sequence) a keyed writer may find already stored, so
 * that most batches need no check against the table. A row may be stored when its sequence is at
 * or below the highest its producer had in the table before the writer's first append (an earlier
 * process's rows, which a restarted one reads again), or when this writer appended its identity
 * before (a repeat, or a replay inside the process). Any other row is new: no other writer stores
 * the identities this one reads (see {@link ArrowBatchWriter}'s check). A writer's own appends are
 * kept as one bit per sequence, in pages of 65,536 sequences; past {@link #MAX_PAGES} a producer's
 * lowest page is dropped and its sequences are checked against the table again.
 *
 * <p>Conservative by construction: a row is only ever sent to the table's check, never dropped
 * here, so an identity marked but not stored (an append rolled back) costs a check, nothing more.
 */
final class StoredIdentities {
  static final int PAGE_SHIFT = 16;
  private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;
  /** Pages of all producers together: 32 MB of bits, 268 M sequences. */
  static final int MAX_PAGES = 4096;

  private final Map<Integer, Producer> producers = new HashMap<>();
  /** Each producer's highest sequence in the table before the first append. */
  private final Map<Integer, Long> highestBefore;
  private int pages;
  private Producer last;

  StoredIdentities(Map<Integer, Long> highestBefore) {
    this.highestBefore = highestBefore;
  }

  /** What {@code quotedTable} holds now: its producers' highest sequences. */
  static StoredIdentities read(Connection c, String quotedTable, String pidColumn, String seqColumn) throws SQLException {
    Map<Integer, Long> highest = new HashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT " + pidColumn + ", max(" + seqColumn + ") FROM " + quotedTable
            + " GROUP BY " + pidColumn)) {
      while (rs.next()) highest.put(rs.getInt(1), rs.getLong(2));
    }
    return new StoredIdentities(highest);
  }

  /**
   * Marks the rows' identities as appended by this writer.
   *
   * @return whether any of them may be stored already: then the batch is checked against the table
   */
  boolean mark(List<GenericRecord> rows, int pidPos, int seqPos) {
    boolean mayBeStored = false;
    for (int i = 0, n = rows.size(); i < n; i++) {
      GenericRecord r = rows.get(i);
      if (!markNew((Integer) r.get(pidPos), (Long) r.get(seqPos))) mayBeStored = true;
    }
    return mayBeStored;
  }

  /** @return true when the identity was certainly not stored before (it is marked now) */
  boolean markNew(int pid, long seq) {
    Producer p = last != null && last.pid == pid ? last : producer(pid);
    last = p;
    if (seq < p.floor) return false;
    long[] bits = p.page(seq >> PAGE_SHIFT);
    if (bits == null) return false;
    int bit = (int) (seq & PAGE_MASK);
    long mask = 1L << bit;
    if ((bits[bit >>> 6] & mask) != 0) return false;
    bits[bit >>> 6] |= mask;
    return true;
  }

  private Producer producer(int pid) {
    return producers.computeIfAbsent(pid, id -> {
      Long highest = highestBefore.get(id);
      return new Producer(id, highest == null ? Long.MIN_VALUE : highest + 1);
    });
  }

  /** One producer's marks: sequences below {@link #floor} may be stored, above it the pages say. */
  private final class Producer {
    final int pid;
    long floor;
    final TreeMap<Long, long[]> pages = new TreeMap<>();
    long lastPage = Long.MIN_VALUE;
    long[] lastBits;

    Producer(int pid, long floor) {
      this.pid = pid;
      this.floor = floor;
    }

    /** The page's bits, made if new; null when no page may be made for it (then the row is checked). */
    long[] page(long page) {
      if (page == lastPage && lastBits != null) return lastBits;
      long[] bits = pages.get(page);
      if (bits == null) {
        if (pages.size() > 0 && StoredIdentities.this.pages >= MAX_PAGES) {
          if (pages.firstKey() > page) return null; // below every page kept: only the table can tell
          long dropped = pages.pollFirstEntry().getKey(); // its sequences are checked against the table from now on
          floor = Math.max(floor, (dropped + 1) << PAGE_SHIFT);
          StoredIdentities.this.pages--;
          if (dropped == lastPage) lastBits = null;
        }
        bits = new long[1 << (PAGE_SHIFT - 6)];
        pages.put(page, bits);
        StoredIdentities.this.pages++;
      }
      lastPage = page;
      lastBits = bits;
      return bits;
    }
  }
}
