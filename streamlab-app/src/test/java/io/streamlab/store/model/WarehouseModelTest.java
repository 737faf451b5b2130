package io.streamlab.store.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamlab.bench.WriteFigures;
import io.streamlab.report.ReportFiles;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WarehouseModelTest {
  @Test
  void roundTripsFollowTheGivenPercentiles() {
    WarehouseModel m = WarehouseModel.bigquery(75, 110);
    long[] draws = new long[40_000];
    for (int i = 0; i < draws.length; i++) draws[i] = m.drawNanos();
    Arrays.sort(draws);
    double p50 = draws[draws.length / 2] / 1e6, p95 = draws[(int) (draws.length * 0.95)] / 1e6;
    assertEquals(75, p50, 3, "median round trip");
    assertEquals(110, p95, 5, "95th percentile round trip");
  }

  @Test
  void badParametersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> WarehouseModel.bigquery(0, 10));
    assertThrows(IllegalArgumentException.class, () -> WarehouseModel.bigquery(100, 50));
  }

  @Test
  void modelParametersAppearInResults() {
    JsonNode on = ReportFiles.JSON.valueToTree(WriteFigures.model(Map.of("warehouseModel", "bigquery",
        "roundTripP50", "PT0.075S", "roundTripP95", "PT0.11S")));
    assertEquals("bigquery", on.path("kind").asText());
    assertEquals(true, on.path("isModel").asBoolean(false), on.toString());
    assertEquals(75.0, on.path("roundTripP50Millis").asDouble(), 1e-9);
    assertEquals(110.0, on.path("roundTripP95Millis").asDouble(), 1e-9);
    JsonNode off = ReportFiles.JSON.valueToTree(WriteFigures.model(Map.of("warehouseModel", "none")));
    assertEquals(ReportFiles.JSON.createObjectNode().put("kind", "none"), off, "results.json: {\"kind\": \"none\"} alone");
    assertTrue(m().describe().contains("MODEL"));
  }

  private static WarehouseModel m() {
    return WarehouseModel.bigquery(75, 110);
  }
}
