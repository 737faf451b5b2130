package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The warehouse model's parameters as results.json and the study print them, from a run's configuration. */
class WriteFiguresTest {
  @Test
  void modelParametersAsTheFlagsGaveThem() {
    WriteFigures.Model m = WriteFigures.model(Map.of("warehouseModel", "bigquery", "roundTripP50", "75ms",
        "roundTripP95", "110ms"));
    assertEquals(75.0, m.roundTripP50Millis()); // was printed 0.0 when the value was not ISO-8601
    assertEquals(110.0, m.roundTripP95Millis());
    WriteFigures.Model iso = WriteFigures.model(Map.of("warehouseModel", "bigquery", "roundTripP50", "PT0.075S",
        "roundTripP95", "PT0.11S"));
    assertEquals(75.0, iso.roundTripP50Millis());
    assertEquals(110.0, iso.roundTripP95Millis());
    assertNull(WriteFigures.model(Map.of("warehouseModel", "bigquery", "roundTripP50", "soon")).roundTripP50Millis());
    assertEquals("none", WriteFigures.model(Map.of()).kind());
  }
}
