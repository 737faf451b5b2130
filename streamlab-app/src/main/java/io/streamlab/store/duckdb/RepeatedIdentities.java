package io.streamlab.store.duckdb;

import io.streamlab.store.IdentityCollisions;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;

/**
 * A batch's rows whose identity (producer id, sequence) an earlier row of the same batch has. A
 * DuckDB table of an exactly-once write has no key to refuse the second ({@link ArrowBatchWriter}
 * checks each batch against the table, not against itself), so the writer looks first: a repeat
 * with the first row's send time is the same event read twice and is dropped, one with another
 * send time is a collision ({@link IdentityCollisions}). One pass over the batch with an
 * open-addressing table of row indices, no object per row: the usual batch has no repeat.
 */
final class RepeatedIdentities {
  private RepeatedIdentities() {}

  /**
   * {@code rows} itself when no identity repeats; else the rows without the repeats of an earlier
   * row's event, in their order.
   *
   * @throws IdentityCollisions.Found when a repeated identity carries another send time: nothing
   *     is dropped, the caller dead-letters the collisions and appends the rest again
   */
  static List<GenericRecord> dropped(List<GenericRecord> rows, int pidPos, int seqPos, int sendPos)
      throws IdentityCollisions.Found {
    int n = rows.size();
    int[] slots = new int[Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1]; // row index + 1, 0 = empty
    int mask = slots.length - 1;
    boolean[] repeat = null;
    List<IdentityCollisions.Collision> collisions = null;
    for (int i = 0; i < n; i++) {
      GenericRecord r = rows.get(i);
      int pid = (Integer) r.get(pidPos);
      long seq = (Long) r.get(seqPos);
      int slot = (int) mix(pid, seq) & mask;
      while (true) {
        int j = slots[slot] - 1;
        if (j < 0) {
          slots[slot] = i + 1;
          break;
        }
        GenericRecord first = rows.get(j);
        if ((Integer) first.get(pidPos) == pid && (Long) first.get(seqPos) == seq) {
          long sent = (Long) first.get(sendPos), again = (Long) r.get(sendPos);
          if (sent == again) {
            if (repeat == null) repeat = new boolean[n];
            repeat[i] = true;
          } else {
            if (collisions == null) collisions = new ArrayList<>();
            collisions.add(new IdentityCollisions.Collision(pid, seq, sent, again));
          }
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    if (collisions != null) throw new IdentityCollisions.Found(collisions);
    if (repeat == null) return rows;
    List<GenericRecord> kept = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (!repeat[i]) kept.add(rows.get(i));
    }
    return kept;
  }

  /** A well-spread hash of the identity (Stafford's variant 13 of MurmurHash3's finalizer). */
  private static long mix(int pid, long seq) {
    long z = seq * 0x9E3779B97F4A7C15L + pid;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
