package io.streamlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import io.streamlab.scenario.ScenarioFile;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class ScenarioArgsTest {
  private final CommandSpec run = Main.commandLine().getSubcommands().get("run").getCommandSpec();

  @Test
  void settingsBecomeFlagsAndSwitchesBecomeBareFlags() {
    Scenario s = ScenarioFile.parse("t", "ratePerSec = 5000\nmode = drain\ncompleteObjects = false\n", "t.properties");
    assertEquals(List.of("--ratePerSec=5000", "--mode=drain", "--no-completeObjects"), ScenarioArgs.of(s, run));
  }

  @Test
  void anUnknownKeyIsAClearErrorNamingScenarioLineAndKey() {
    Scenario s = ScenarioFile.parse("t", "# about\nratePerSec = 5000\nrateperSecond = 1\n", "t.properties");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioArgs.of(s, run));
    assertEquals("scenario t (t.properties line 3): unknown key 'rateperSecond'; keys are the flags of "
        + "'streamlab run --help' without their dashes", e.getMessage());
  }

  @Test
  void aSwitchTakesTrueOrFalseOnly() {
    Scenario s = ScenarioFile.parse("t", "completeObjects = maybe\n", "t.properties");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ScenarioArgs.of(s, run));
    assertTrue(e.getMessage().contains("'completeObjects' is true or false, not 'maybe'"), e.getMessage());
  }

  @Test
  void everyBuiltInScenarioParsesIntoTheRunCommand() {
    for (Scenario s : ScenarioCatalog.builtIn()) {
      List<String> args = ScenarioArgs.of(s, run);
      new CommandLine(new RunCommand()).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args.toArray(String[]::new));
    }
  }

  @Test
  void theQuickstartParsesIntoTheRunCommand() {
    List<String> args = ScenarioArgs.of(ScenarioCatalog.resolve("quickstart"), run);
    RunCommand cmd = new CommandLine(new RunCommand()).parseArgs(args.toArray(String[]::new))
        .commandSpec().commandLine().getCommand();
    assertEquals(10_000, cmd.generator.ratePerSec);
    assertEquals(java.time.Duration.ofSeconds(20), cmd.duration);
  }
}
