package io.streamlab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How every streamlab result file is written (run, study, loadtest, sinkbench): typed records
 * serialised by Jackson, to JSON with one mapper and to CSV with one CSV mapper, so a file's
 * fields are a record's components and quoting, nulls and number formats are the same everywhere.
 */
public final class ReportFiles {
  /** Indented; a Duration as its ISO text ("PT10S"), which is also how options and results.json name it. */
  public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .registerModule(new SimpleModule("streamlab-report").addSerializer(Duration.class, ToStringSerializer.instance));
  private static final CsvMapper CSV = new CsvMapper();

  private ReportFiles() {}

  public static Path writeJson(Path file, Object value) throws IOException {
    JSON.writeValue(file.toFile(), value);
    return file;
  }

  /**
   * One row per record, a header of the record's components in their declared order, each under
   * its JSON name (@JsonProperty, @JsonNaming). The order is taken from the record itself: Jackson
   * 2.15 puts renamed properties first.
   */
  public static <T extends Record> Path writeCsv(Path file, Class<T> rowType, List<T> rows) throws IOException {
    Map<String, String> names = new HashMap<>();
    for (BeanPropertyDefinition p : CSV.getSerializationConfig().introspect(CSV.constructType(rowType)).findProperties()) {
      names.put(p.getInternalName(), p.getName());
    }
    CsvSchema.Builder schema = CsvSchema.builder();
    for (RecordComponent c : rowType.getRecordComponents()) schema.addColumn(names.getOrDefault(c.getName(), c.getName()));
    CSV.writer(schema.build().withHeader()).writeValue(file.toFile(), rows);
    return file;
  }

  /** Rows whose columns are known only at run time (a time series' per-stage columns); a missing or null cell is empty. */
  public static Path writeCsv(Path file, List<String> columns, List<? extends Map<String, ?>> rows) throws IOException {
    CsvSchema.Builder schema = CsvSchema.builder();
    columns.forEach(schema::addColumn);
    CSV.writer(schema.build().withHeader()).writeValue(file.toFile(), rows);
    return file;
  }

  /** {@code v} to {@code decimals} places, so files carry the precision a figure has rather than binary noise. */
  public static double round(double v, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(v * scale) / scale;
  }
}
