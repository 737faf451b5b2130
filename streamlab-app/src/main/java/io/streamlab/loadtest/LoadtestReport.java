package io.streamlab.loadtest;

import java.util.List;

/**
 * Everything a {@code streamlab loadtest} invocation measured, for the output files.
 *
 * @param sweep the sweep run (NONE for a single point or a max-rate search)
 * @param maxRate the max-rate search, or null when not run
 * @param machine cores and load when the test ran (the machine may be shared)
 */
public record LoadtestReport(String sweep, List<PointResult> points, MaxRateSearch.Outcome maxRate, String machine) {}
