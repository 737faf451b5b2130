package io.streamlab.cli;

import io.streamlab.scenario.Scenario;
import io.streamlab.scenario.ScenarioCatalog;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "scenarios", mixinStandardHelpOptions = true,
    description = {"List the built-in scenarios (the repository's scenarios/ folder): 'streamlab run NAME...' "
        + "runs them in a row. A scenario file is 'key = value' lines, each key a flag of 'streamlab run' "
        + "without its dashes; flags given on the command line win over the scenario's."})
final class ScenariosCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var out = spec.commandLine().getOut();
    for (Scenario s : ScenarioCatalog.builtIn()) {
      out.printf("%-22s %s%n", s.name(), s.description());
      StringBuilder flags = new StringBuilder();
      for (Scenario.Setting setting : s.settings()) flags.append(" --").append(setting.key()).append('=').append(setting.value());
      out.printf("%-22s%s%n", "", flags);
    }
    out.flush();
    return 0;
  }
}
