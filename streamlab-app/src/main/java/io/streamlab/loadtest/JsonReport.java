package io.streamlab.loadtest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** {@code loadtest.json}: the whole report, every point with its per-interval time series. */
public final class JsonReport {
  private JsonReport() {}

  static ObjectMapper mapper() {
    SimpleModule readable = new SimpleModule()
        .addSerializer(Duration.class, ToStringSerializer.instance)
        .addSerializer(MessageSizes.class, ToStringSerializer.instance);
    return new ObjectMapper().registerModule(readable).enable(SerializationFeature.INDENT_OUTPUT);
  }

  public static void write(Path file, LoadtestReport report) throws IOException {
    mapper().writeValue(file.toFile(), report);
  }
}
