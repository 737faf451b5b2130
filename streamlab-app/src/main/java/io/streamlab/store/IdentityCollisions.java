package io.streamlab.store;

import io.streamlab.schema.SystemColumns;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.avro.generic.GenericRecord;

/**
 * Tells a replay from a collision when a keyed (exactly-once) append inserted fewer rows than it
 * was given. The identity key ignores a row whose (producer id, sequence) is already in the table;
 * that is right for a replay (the same event read again) and wrong for a different event that
 * carries the same identity (two generators sharing a producer-id range, a producer that reused
 * its sequence numbers): ignoring it would lose that event silently. The two are told apart by
 * the send time stamped when the event was produced: a replay carries the stored row's send time,
 * another event its own. (An event forged with both the identity and the send time of another is
 * a replay as far as any identity key can tell.)
 *
 * <p>Runs only on the append's conflict path (inserted &lt; given), inside the append's
 * transaction, so the normal path pays nothing.
 */
public final class IdentityCollisions {
  private IdentityCollisions() {}

  /** A row of the batch whose identity the table already holds for another event. */
  public record Collision(int producerId, long sequence, long storedSendTimeMicros, long sendTimeMicros) {
    public String describe() {
      return String.format("identity collision: (producer %d, sequence %d) is already in the table for another event "
          + "(its send time %d us, this one's %d us); the identity key would have dropped this one silently",
          producerId, sequence, storedSendTimeMicros, sendTimeMicros);
    }
  }

  /**
   * The rows of {@code rows} whose identity {@code table} holds with another send time.
   *
   * @param quotedTable the table's name as SQL (quoted)
   * @param quote quotes a column name for this database
   */
  public static List<Collision> find(Connection c, String quotedTable, UnaryOperator<String> quote,
      List<GenericRecord> rows) throws SQLException {
    if (rows.isEmpty()) return List.of();
    int pidPos = rows.get(0).getSchema().getField(SystemColumns.PRODUCER_ID).pos();
    int seqPos = rows.get(0).getSchema().getField(SystemColumns.SEQUENCE).pos();
    int sendPos = rows.get(0).getSchema().getField(SystemColumns.SEND_TIME_MICROS).pos();
    StringBuilder keys = new StringBuilder();
    for (GenericRecord r : rows) {
      Object pid = r.get(pidPos), seq = r.get(seqPos);
      if (pid == null || seq == null) continue; // the unknown identity (NULL) never conflicts
      if (keys.length() > 0) keys.append(',');
      // numbers from typed fields (Integer, Long): safe as literals
      keys.append('(').append(((Number) pid).intValue()).append(',').append(((Number) seq).longValue()).append(')');
    }
    if (keys.length() == 0) return List.of();
    String pidCol = quote.apply(SystemColumns.PRODUCER_ID), seqCol = quote.apply(SystemColumns.SEQUENCE);
    String sql = "SELECT " + pidCol + ", " + seqCol + ", " + quote.apply(SystemColumns.SEND_TIME_MICROS)
        + " FROM " + quotedTable + " WHERE (" + pidCol + ", " + seqCol + ") IN (" + keys + ")";
    Map<Long, Map<Integer, Long>> stored = new HashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        stored.computeIfAbsent(rs.getLong(2), k -> new HashMap<>()).put(rs.getInt(1), rs.getLong(3));
      }
    }
    List<Collision> found = new ArrayList<>();
    for (GenericRecord r : rows) {
      Object pid = r.get(pidPos), seq = r.get(seqPos), send = r.get(sendPos);
      if (pid == null || seq == null) continue;
      Long storedSend = stored.getOrDefault(((Number) seq).longValue(), Map.of()).get(((Number) pid).intValue());
      long sendTime = send == null ? Long.MIN_VALUE : ((Number) send).longValue();
      if (storedSend != null && storedSend != sendTime) {
        found.add(new Collision(((Number) pid).intValue(), ((Number) seq).longValue(), storedSend, sendTime));
      }
    }
    return found;
  }

  /**
   * The cause a colliding row is dead-lettered with. Its class name is in every such dead
   * letter's cause (the first holds the trace, later ones name it), so a verifier counts them.
   */
  public static final class Collided extends RuntimeException {
    public Collided(Collision c) {
      super(c.describe());
    }
  }

  /**
   * Thrown by a keyed append that found collisions: the append was rolled back, nothing of it is
   * in the table. The caller dead-letters the colliding rows and appends the others again.
   */
  public static final class Found extends Exception {
    private final List<Collision> collisions;

    public Found(List<Collision> collisions) {
      super(collisions.size() + " identity collision(s), first: " + collisions.get(0).describe());
      this.collisions = List.copyOf(collisions);
    }

    public List<Collision> collisions() {
      return collisions;
    }

    /** The collisions in {@code e}'s cause chain, or null (a decorator may have wrapped it). */
    public static Found in(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
        if (t instanceof Found f) return f;
      }
      return null;
    }
  }
}
