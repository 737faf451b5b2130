package io.streamlab.store;

import io.streamlab.schema.SystemColumns;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

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
   * The rows of {@code batch} whose identity {@code table} holds with another send time.
   *
   * @param batch a relation (table, view, registered stream) of the batch's rows with the columns
   *     sl_producer_id, sl_sequence and sl_send_time_us: joined with the table on its key, so the
   *     store uses the key's index whatever the batch's size
   * @param quote quotes a column name for this database
   */
  public static List<Collision> find(Connection c, String quotedTable, String batch, UnaryOperator<String> quote)
      throws SQLException {
    String pid = quote.apply(SystemColumns.PRODUCER_ID), seq = quote.apply(SystemColumns.SEQUENCE);
    String send = quote.apply(SystemColumns.SEND_TIME_MICROS);
    String sql = "SELECT b." + pid + ", b." + seq + ", t." + send + ", b." + send + " FROM " + batch + " b JOIN "
        + quotedTable + " t ON t." + pid + " = b." + pid + " AND t." + seq + " = b." + seq
        + " WHERE t." + send + " <> b." + send;
    List<Collision> found = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) found.add(new Collision(rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
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
      return Causes.find(e, Found.class);
    }
  }
}
