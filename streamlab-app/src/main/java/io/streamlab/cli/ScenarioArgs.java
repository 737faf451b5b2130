package io.streamlab.cli;

import io.streamlab.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** A scenario's settings as the flags of a command, each key checked against that command's options. */
final class ScenarioArgs {
  private ScenarioArgs() {}

  /** @throws IllegalArgumentException naming the scenario, line and key of an unknown key or bad value */
  static List<String> of(Scenario scenario, CommandSpec command) {
    List<String> args = new ArrayList<>();
    for (Scenario.Setting s : scenario.settings()) {
      OptionSpec option = command.findOption("--" + s.key());
      if (option == null) {
        throw new IllegalArgumentException("scenario " + scenario.name() + " (" + scenario.source() + " line "
            + s.line() + "): unknown key '" + s.key() + "'; keys are the flags of 'streamlab " + command.name()
            + " --help' without their dashes");
      }
      if (option.arity().max() == 0) { // a switch: true sets it, false leaves the default (or negates it)
        switch (s.value().toLowerCase()) {
          case "true" -> args.add("--" + s.key());
          case "false" -> {
            if (option.negatable()) args.add("--no-" + s.key());
          }
          default -> throw new IllegalArgumentException("scenario " + scenario.name() + " (" + scenario.source()
              + " line " + s.line() + "): '" + s.key() + "' is true or false, not '" + s.value() + "'");
        }
      } else {
        args.add("--" + s.key() + "=" + s.value());
      }
    }
    return args;
  }
}
