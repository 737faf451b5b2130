package io.streamlab.cli;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Command-line flags made from Beam {@link PipelineOptions} interfaces, so an ingestion option is
 * defined once, Beam's way (a getter with {@link Description} and {@link Default}), and read the
 * same way everywhere: by picocli as a flag of that name with that description (in {@code --help},
 * scenario files, results.json's configuration), by the pipeline as Beam options (the Dataflow job
 * carries them), and by the ingestion child, whose flags {@link #asArgs} writes from the options
 * themselves. A command lists its interfaces in a {@link Transformer}.
 */
final class BeamFlags {
  private BeamFlags() {}

  /** Adds a flag per property of its interfaces to a command (picocli {@code @Command(modelTransformer)}). */
  abstract static class Transformer implements CommandLine.IModelTransformer {
    private final List<Class<? extends PipelineOptions>> interfaces;

    @SafeVarargs
    Transformer(Class<? extends PipelineOptions>... interfaces) {
      this(List.of(interfaces));
    }

    Transformer(List<Class<? extends PipelineOptions>> interfaces) {
      this.interfaces = interfaces;
    }

    @Override
    public CommandSpec transform(CommandSpec spec) {
      for (Class<? extends PipelineOptions> i : interfaces) {
        for (Method getter : getters(i)) {
          // once: interfaces listed with one they extend (Throttle and Tuning) share getters
          if (spec.findOption("--" + property(getter)) == null) spec.addOption(flag(getter));
        }
      }
      return spec;
    }
  }

  /** The ingestion's options: flags of ingest and run, read by the pipeline's runner and the child. */
  static final List<Class<? extends PipelineOptions>> INGESTION =
      List.of(SchemaOptions.class, DecodeOptions.class, ThrottleOptions.class, WriteOptions.class);

  /** The flags of ingest and run: every ingestion option, and the store (which run chooses itself for its child). */
  public static final class Ingestion extends Transformer {
    public Ingestion() {
      super(Stream.concat(INGESTION.stream(), Stream.of(StoreOptions.class)).toList());
    }
  }

  /** The command's ingestion options as flags, written from the options: for the ingestion child and the runner. */
  static List<String> ingestionArgs(CommandSpec spec) {
    List<String> args = new ArrayList<>();
    for (Class<? extends PipelineOptions> i : INGESTION) args.addAll(asArgs(options(spec, i), i));
    return args;
  }

  /**
   * The command's values of {@code iface}'s flags (given or default) as Beam options, validated by
   * Beam (types, enum constants) as {@code PipelineOptionsFactory.fromArgs} does.
   */
  static <T extends PipelineOptions> T options(CommandSpec spec, Class<T> iface) {
    List<String> args = new ArrayList<>();
    for (Method getter : getters(iface)) {
      OptionSpec o = spec.findOption("--" + property(getter));
      if (o != null) args.addAll(flag(property(getter), o.getValue()));
    }
    PipelineOptionsFactory.register(iface);
    return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).as(iface);
  }

  /**
   * Writes {@code options}' values of {@code iface} back into the command's flags: what a run
   * changed (a cluster's store) is then what its configuration (results.json) shows.
   */
  static void setValues(CommandSpec spec, PipelineOptions options, Class<? extends PipelineOptions> iface) {
    PipelineOptions view = options.as(iface);
    for (Method getter : getters(iface)) {
      try {
        spec.findOption("--" + property(getter)).setValue(getter.invoke(view));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read option " + property(getter), e);
      }
    }
  }

  /** {@code options}' values of {@code iface}'s properties as flags, for a child process or Beam. */
  static List<String> asArgs(PipelineOptions options, Class<? extends PipelineOptions> iface) {
    PipelineOptions view = options.as(iface);
    List<String> args = new ArrayList<>();
    for (Method getter : getters(iface)) {
      try {
        args.addAll(flag(property(getter), getter.invoke(view)));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read option " + property(getter), e);
      }
    }
    return args;
  }

  /** A switch is given bare when on and left out when off (Beam and picocli read both so). */
  private static List<String> flag(String name, Object value) {
    if (value == null || Boolean.FALSE.equals(value)) return List.of();
    if (Boolean.TRUE.equals(value)) return List.of("--" + name);
    if (value instanceof List<?> l) {
      return l.isEmpty() ? List.of() : List.of("--" + name + "=" + String.join(",", l.stream().map(String::valueOf).toList()));
    }
    return List.of("--" + name + "=" + value);
  }

  /** The getters {@code iface} and its streamlab super-interfaces declare, in name order (Beam's own left out). */
  static List<Method> getters(Class<? extends PipelineOptions> iface) {
    return Arrays.stream(iface.getMethods())
        .filter(m -> m.isAnnotationPresent(Description.class) && m.getParameterCount() == 0
            && m.getDeclaringClass().getName().startsWith("io.streamlab."))
        .sorted(Comparator.comparing(BeamFlags::property))
        .toList();
  }

  private static String property(Method getter) {
    String n = getter.getName();
    String bare = n.startsWith("is") ? n.substring(2) : n.substring(3);
    return Character.toLowerCase(bare.charAt(0)) + bare.substring(1);
  }

  private static OptionSpec flag(Method getter) {
    Class<?> type = getter.getReturnType();
    String text = getter.getAnnotation(Description.class).value();
    if (type.isEnum()) {
      text += " One of: " + String.join(", ", Arrays.stream(type.getEnumConstants()).map(String::valueOf).toList()) + ".";
    }
    String def = defaultValue(getter);
    if (def != null) text += " Default: " + def + ".";
    OptionSpec.Builder b = OptionSpec.builder("--" + property(getter)).type(type).paramLabel("<" + property(getter) + ">")
        .description(text.replace("%", "%%")); // picocli formats descriptions: a % is literal here
    if (def != null) b.defaultValue(def);
    if (type == boolean.class || type == Boolean.class) b.arity("0");
    return b.build();
  }

  /** The value of the getter's {@code @Default.*}, as text; null without one. */
  private static String defaultValue(Method getter) {
    if (getter.getAnnotation(Default.String.class) != null) return getter.getAnnotation(Default.String.class).value();
    if (getter.getAnnotation(Default.Integer.class) != null) return "" + getter.getAnnotation(Default.Integer.class).value();
    if (getter.getAnnotation(Default.Long.class) != null) return "" + getter.getAnnotation(Default.Long.class).value();
    if (getter.getAnnotation(Default.Double.class) != null) return "" + getter.getAnnotation(Default.Double.class).value();
    if (getter.getAnnotation(Default.Boolean.class) != null) return "" + getter.getAnnotation(Default.Boolean.class).value();
    if (getter.getAnnotation(Default.Enum.class) != null) return getter.getAnnotation(Default.Enum.class).value();
    return null;
  }
}
