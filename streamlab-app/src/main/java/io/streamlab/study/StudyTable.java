package io.streamlab.study;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The study's table for the console: the lab's figures beside the study's, then the stages, then the shape. */
public final class StudyTable {
  private StudyTable() {}

  public static String render(List<StudyRow> rows, List<StudyShape.Verdict> verdicts) {
    StringBuilder sb = new StringBuilder();
    List<List<String>> main = new ArrayList<>();
    main.add(List.of("run", "write method", "format", "keys", "max /s", "steady /s", "CPU-s/M ev",
        "cores@1M/s", "study cores", "MB/s/core", "study", "p50 ms", "p99 ms", "study latency",
        "shuffled/read", "study shuffle", "lost", "dup"));
    for (StudyRow r : rows) {
      StudyFigures.Run s = StudyFigures.forScenario(r.scenario()).orElse(null);
      main.add(List.of(r.scenario(), r.writeMethod(), r.formatToStore(), r.keys(),
          r.highestSustainedPerSec() == null ? "n/a" : number(r.highestSustainedPerSec()),
          number(r.eventsPerSec()), decimal(r.cpuSecondsPerMillionEvents()), decimal(r.coresForMillionPerSec()),
          s == null ? "n/a" : s.coresText(), decimal(r.megabytesPerSecPerCore()),
          s == null || s.mbPerSecPerCore() == null ? "n/a" : decimal(s.mbPerSecPerCore()),
          number(r.p50Millis()), number(r.p99Millis()), s == null ? "n/a" : s.latency(),
          StudyShape.ratioText(r.shuffledPerRead()), s == null ? "n/a" : s.shuffle(),
          String.valueOf(r.lost()), String.valueOf(r.duplicated())));
    }
    sb.append(text(main, 4));
    sb.append("max /s: highest sustained rate of the max-rate search; the other figures are of the steady window at ")
        .append("the common rate. cores@1M/s = CPU-s per million events (the pipeline's own processes). Study cores = ")
        .append("its workers x ").append(StudyFigures.VCPUS_PER_WORKER).append(" vCPU.").append(System.lineSeparator());

    Set<String> stages = new LinkedHashSet<>();
    for (StudyRow r : rows) stages.addAll(r.stageWallSeconds().keySet());
    List<String> head = new ArrayList<>(List.of("run"));
    for (String st : stages) head.add(st + " wall s");
    Set<String> aged = new LinkedHashSet<>();
    for (StudyRow r : rows) aged.addAll(r.stageMillisFromRead().keySet());
    aged.remove("read"); // 0 by definition
    for (String st : aged) head.add(st + " ms after read");
    head.add("B/element after convert");
    head.add("active keys/shards (max)");
    head.add("connections");
    head.add("appends/conn");
    head.add("max in flight");
    head.add("warehouse model");
    List<List<String>> stageRows = new ArrayList<>();
    stageRows.add(head);
    for (StudyRow r : rows) {
      List<String> row = new ArrayList<>(List.of(r.scenario()));
      for (String st : stages) row.add(decimal(r.stageWallSeconds().get(st)));
      for (String st : aged) row.add(decimal(r.stageMillisFromRead().get(st)));
      row.add(r.convertedElementBytes() == null ? "n/a" : number(r.convertedElementBytes()));
      row.add(r.activeKeysMax() == null ? "n/a" : String.valueOf(r.activeKeysMax()));
      row.add(r.connectionsOpened() == null ? "n/a" : String.valueOf(r.connectionsOpened()));
      row.add(decimal(r.appendsPerConnection()));
      row.add(r.maxRequestsInFlight() == null ? "n/a" : String.valueOf(r.maxRequestsInFlight()));
      row.add(model(r));
      stageRows.add(row);
    }
    sb.append(System.lineSeparator()).append("Per stage (steady window):").append(System.lineSeparator());
    sb.append(text(stageRows, 1));

    sb.append(System.lineSeparator()).append("Does the lab reproduce the study's shape?").append(System.lineSeparator());
    for (StudyShape.Verdict v : verdicts) {
      sb.append(String.format(Locale.ROOT, "  %-4s %s  [%s]%n", v.answer() + ":", v.claim(), v.evidence()));
    }
    sb.append("Study figures: ").append(StudyFigures.SOURCE).append(System.lineSeparator());
    return sb.toString();
  }

  /** Fixed-width columns, the first {@code leftAligned} left-aligned, the rest right-aligned. */
  static String text(List<List<String>> rows, int leftAligned) {
    int[] width = new int[rows.get(0).size()];
    for (List<String> row : rows) for (int i = 0; i < width.length; i++) width[i] = Math.max(width[i], row.get(i).length());
    StringBuilder sb = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < width.length; i++) {
        line.append(String.format(Locale.ROOT, (i < leftAligned ? "%-" : "%") + width[i] + "s  ", row.get(i)));
      }
      sb.append(line.toString().stripTrailing()).append(System.lineSeparator());
    }
    return sb.toString();
  }

  /** The model's parameters in one cell: "off" when the run ran without one, n/a when results.json does not say. */
  static String model(StudyRow r) {
    if (r.warehouseModel() == null) return "n/a";
    if (r.warehouseModel().path("kind").asText().equals("none")) return "off";
    StringBuilder sb = new StringBuilder("MODEL");
    r.warehouseModel().fields().forEachRemaining(e -> {
      if (!e.getKey().equals("isModel")) sb.append(' ').append(e.getKey()).append('=').append(e.getValue().asText());
    });
    return sb.toString();
  }

  static String number(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String decimal(Double v) {
    if (v == null) return "n/a";
    return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.1f", v);
  }
}
