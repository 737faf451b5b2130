package io.streamlab.study;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamlab.report.ReportFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** study.json: the study's rows, its shape verdicts, the settings it ran with and the study's own figures. */
public final class StudyJson {
  private static final ObjectMapper MAPPER = ReportFiles.JSON;

  private StudyJson() {}

  /** @param settings how the study ran (windows, common rate, which scenarios), for the reader */
  public static JsonNode tree(Map<String, Object> settings, List<StudyRow> rows, List<StudyShape.Verdict> verdicts) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("settings", settings);
    List<Map<String, Object>> list = new ArrayList<>();
    for (StudyRow r : rows) {
      Map<String, Object> m = MAPPER.convertValue(r, MAPPER.getTypeFactory().constructMapType(LinkedHashMap.class,
          String.class, Object.class));
      m.put("shuffledPerRead", r.shuffledPerRead());
      m.put("coresForMillionPerSec", r.coresForMillionPerSec());
      StudyFigures.forScenario(r.scenario()).ifPresent(s -> {
        Map<String, Object> study = MAPPER.convertValue(s, MAPPER.getTypeFactory().constructMapType(LinkedHashMap.class,
            String.class, Object.class));
        study.put("cores", s.cores());
        study.put("coresText", s.coresText());
        m.put("study", study);
      });
      list.add(m);
    }
    root.put("rows", list);
    root.put("shape", verdicts.stream().map(v -> Map.of("claim", v.claim(), "answer", v.answer(),
        "evidence", v.evidence())).toList());
    root.put("studySource", StudyFigures.SOURCE);
    root.put("studyVcpusPerWorker", StudyFigures.VCPUS_PER_WORKER);
    return MAPPER.valueToTree(root);
  }

  public static Path write(JsonNode study, Path dir) throws IOException {
    Path file = dir.resolve("study.json");
    MAPPER.writeValue(file.toFile(), study);
    return file;
  }
}
