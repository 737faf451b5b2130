package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationConverterTest {
  private final DurationConverter c = new DurationConverter();

  @Test
  void acceptsUnits() {
    assertEquals(Duration.ofMillis(500), c.convert("500ms"));
    assertEquals(Duration.ofSeconds(30), c.convert("30s"));
    assertEquals(Duration.ofMillis(1500), c.convert("1.5s"));
    assertEquals(Duration.ofMinutes(2), c.convert("2m"));
    assertEquals(Duration.ofHours(1), c.convert("1h"));
    assertEquals(Duration.ofSeconds(45), c.convert("45"));
  }

  @Test
  void rejectsNonsenseWithAClearMessage() {
    var e = assertThrows(CommandLine.TypeConversionException.class, () -> c.convert("soon"));
    assertEquals("'soon' is not a duration (examples: 500ms, 30s, 2m, 1h)", e.getMessage());
  }
}
