package io.streamlab.store.duckdb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a keyed writer may find stored: the table's rows before its first append, and its own appends. */
class StoredIdentitiesTest {
  @Test
  void aSequenceAtOrBelowItsProducersHighestBeforeTheFirstAppendMayBeStored() {
    StoredIdentities s = new StoredIdentities(Map.of(1, 100L));
    assertFalse(s.markNew(1, 100), "stored by an earlier process, perhaps");
    assertFalse(s.markNew(1, 0));
    assertTrue(s.markNew(1, 101), "above the table's highest: new");
    assertTrue(s.markNew(2, 0), "a producer the table did not hold");
    assertTrue(s.markNew(2, -5), "whatever its sequence");
  }

  @Test
  void anIdentityThisWriterAppendedMayBeStoredAndOthersNot() {
    StoredIdentities s = new StoredIdentities(Map.of());
    for (long q = 0; q < 200_000; q += 2) assertTrue(s.markNew(7, q)); // over several pages
    for (long q = 0; q < 200_000; q += 2) assertFalse(s.markNew(7, q), "appended before: " + q);
    for (long q = 1; q < 200_000; q += 2) assertTrue(s.markNew(7, q), "the other partition's sequences: new " + q);
    assertTrue(s.markNew(8, 0), "the same sequence of another producer");
  }

  @Test
  void pastTheLastPageAProducersLowestSequencesAreCheckedAgain() {
    StoredIdentities s = new StoredIdentities(Map.of());
    for (long page = 0; page <= StoredIdentities.MAX_PAGES; page++) {
      assertTrue(s.markNew(1, page << StoredIdentities.PAGE_SHIFT));
    }
    assertFalse(s.markNew(1, 5), "its page was dropped: the table decides");
    assertFalse(s.markNew(1, StoredIdentities.MAX_PAGES << StoredIdentities.PAGE_SHIFT), "still marked");
    assertTrue(s.markNew(1, (StoredIdentities.MAX_PAGES << StoredIdentities.PAGE_SHIFT) + 1));
  }
}
