package io.streamlab.cli;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
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
 *
 * <p>Options Beam itself defines (its runners' and Dataflow's: {@link #RUNNER}, {@link #DATAFLOW})
 * are not defined again: they are flags under Beam's own names, types and descriptions
 * ({@link BeamOption}), whose values go to {@code PipelineOptionsFactory} as given
 * ({@link #beamArgs}), so Beam parses and validates them as it documents them.
 */
final class BeamFlags {
  private BeamFlags() {}

  /** Adds a flag per property of its interfaces to a command (picocli {@code @Command(modelTransformer)}). */
  abstract static class Transformer implements CommandLine.IModelTransformer {
    private final List<Class<? extends PipelineOptions>> interfaces;
    private final List<BeamOption> beamOptions;

    @SafeVarargs
    Transformer(Class<? extends PipelineOptions>... interfaces) {
      this(List.of(interfaces), List.of());
    }

    Transformer(List<Class<? extends PipelineOptions>> interfaces, List<BeamOption> beamOptions) {
      this.interfaces = interfaces;
      this.beamOptions = beamOptions;
    }

    @Override
    public CommandSpec transform(CommandSpec spec) {
      for (Class<? extends PipelineOptions> i : interfaces) {
        for (Method getter : getters(i)) {
          // once: interfaces listed with one they extend (Throttle and Tuning) share getters
          if (spec.findOption("--" + property(getter)) == null) spec.addOption(flag(getter));
        }
      }
      for (BeamOption o : beamOptions) spec.addOption(o.flag());
      return spec;
    }
  }

  /** The ingestion's options: flags of ingest and run, read by the pipeline's runner and the child. */
  static final List<Class<? extends PipelineOptions>> INGESTION =
      List.of(SchemaOptions.class, DecodeOptions.class, ThrottleOptions.class, WriteOptions.class, RunnerOptions.class);

  /**
   * The flags of ingest and run: every ingestion option, the store (which run chooses itself for its
   * child), and Beam's own runner and Dataflow options.
   */
  public static final class Ingestion extends Transformer {
    public Ingestion() {
      super(Stream.concat(INGESTION.stream(), Stream.of(StoreOptions.class)).toList(),
          Stream.concat(RUNNER.stream(), DATAFLOW.stream()).toList());
    }
  }

  /**
   * An option Beam defines (in {@code iface}), as a flag of Beam's name, type and description, so
   * that it is defined once, by Beam. streamlab adds how it uses the option ({@code note}) and may
   * have a default of its own ({@code streamlabDefault}; null: none, Beam's or the service's applies).
   */
  record BeamOption(Class<? extends PipelineOptions> iface, String property, String streamlabDefault, String note) {
    BeamOption {
      getter(iface, property); // a name Beam does not define fails here, at class initialisation, not at a user
    }

    private static Method getter(Class<? extends PipelineOptions> iface, String property) {
      String bare = Character.toUpperCase(property.charAt(0)) + property.substring(1);
      for (Method m : iface.getMethods()) {
        if ((m.getName().equals("get" + bare) || m.getName().equals("is" + bare)) && m.getParameterCount() == 0
            && m.isAnnotationPresent(Description.class)) {
          return m;
        }
      }
      throw new IllegalStateException(iface.getName() + " defines no option " + property);
    }

    /** The flag's type: Beam's, boxed, so that a flag not given is null (Beam's default); a runner class by name. */
    private Class<?> type() {
      Class<?> t = getter(iface, property).getReturnType();
      if (t == Class.class) return String.class;
      if (t == int.class) return Integer.class;
      if (t == long.class) return Long.class;
      if (t == boolean.class) return Boolean.class;
      return t;
    }

    OptionSpec flag() {
      Method getter = getter(iface, property);
      Class<?> type = type();
      String text = getter.getAnnotation(Description.class).value().strip() + " (Beam's " + iface.getSimpleName()
          + ".) " + note;
      if (type.isEnum()) {
        text += " One of: " + String.join(", ", Arrays.stream(type.getEnumConstants()).map(String::valueOf).toList()) + ".";
      }
      if (streamlabDefault != null) text += " Default: " + streamlabDefault + ".";
      OptionSpec.Builder b = OptionSpec.builder("--" + property).type(type).paramLabel("<" + property + ">")
          .description(text.replace("%", "%%"));
      if (streamlabDefault != null) b.defaultValue(streamlabDefault);
      if (type == Boolean.class) b.arity("0..1").fallbackValue("true"); // --name alone is true, as Beam reads it
      if (type == List.class) b.auxiliaryTypes(String.class).splitRegex(",");
      return b.build();
    }
  }

  /** Beam's runner options that ingest, run and sinkbench take under Beam's names. */
  static final List<BeamOption> RUNNER = List.of(
      new BeamOption(PipelineOptions.class, "runner", "FlinkRunner", "Here FlinkRunner (an embedded MiniCluster "
          + "unless --flinkMaster names a cluster), DirectRunner (small tests only: ~5 k events/s) or, for ingest, "
          + "DataflowRunner."),
      new BeamOption(FlinkPipelineOptions.class, "flinkMaster", "[local]", "[local] is a MiniCluster in the "
          + "ingestion's JVM."),
      new BeamOption(FlinkPipelineOptions.class, "parallelism", null, "Here 0 or not given: one per core of "
          + "this machine (run --cluster: every slot of the cluster)."),
      new BeamOption(FlinkPipelineOptions.class, "maxBundleSize", "50000", "A bundle ends with an append."),
      // 25 ms: a row waits for its bundle to end before it is appended, so this is a floor under
      // latency. Beam's Flink runner checks the bound every maxBundleTimeMills / 2 and counts from
      // the end of the previous bundle's finishBundle, so a bundle lasts 1 to 1.5 times the bound and
      // the reader waits out its append after it. Halving it from 50 ms did not raise the CPU per
      // event of drains into PostgreSQL; it lowered it, with less collection (docs/perf-notes.md,
      // "2026-11-29 evening: bundle time 25 ms"). A drain or a high rate still fills bundles up to --maxBundleSize;
      // raise the bound for throughput-only runs (README, "Main flags").
      new BeamOption(FlinkPipelineOptions.class, "maxBundleTimeMills", "25", "A bundle ends with an append, so "
          + "this bounds latency from below; longer bundles mean bigger appends (DuckDB: ~60 MB/s per core in "
          + "1,000-row appends, ~130 in 20,000-row ones) at the cost of latency."));

  private static final String FOR_DATAFLOW = "For ingest --runner=DataflowRunner or --dryRun, and run --cloud=gcp.";

  /** Dataflow's options that ingest and run take under Beam's names; not given: Dataflow's default. */
  static final List<BeamOption> DATAFLOW = List.of(
      new BeamOption(DataflowPipelineOptions.class, "project", null, FOR_DATAFLOW),
      new BeamOption(DataflowPipelineOptions.class, "region", null, FOR_DATAFLOW + " Required by Dataflow."),
      new BeamOption(DataflowPipelineOptions.class, "tempLocation", null, FOR_DATAFLOW + " A gs://BUCKET/PATH; not "
          + "given, Dataflow creates a bucket."),
      new BeamOption(DataflowPipelineOptions.class, "maxNumWorkers", null, FOR_DATAFLOW),
      new BeamOption(DataflowPipelineOptions.class, "workerMachineType", null, FOR_DATAFLOW
          + " E.g. n2-standard-4."),
      new BeamOption(DataflowPipelineOptions.class, "enableStreamingEngine", null, FOR_DATAFLOW
          + " --enableStreamingEngine=false: the shuffle and state on the workers."),
      new BeamOption(DataflowPipelineOptions.class, "autoscalingAlgorithm", null, FOR_DATAFLOW
          + " NONE takes a fixed --beamArg=--numWorkers=N."),
      new BeamOption(DataflowPipelineOptions.class, "experiments", null, FOR_DATAFLOW
          + " Comma-separated, e.g. use_runner_v2."));

  /**
   * The command's values of {@code options} (given, or streamlab's default) as Beam arguments, to go
   * to {@code PipelineOptionsFactory} as they are: the runner's, or the ingestion child's, flags.
   */
  static List<String> beamArgs(CommandSpec spec, List<BeamOption> options) {
    List<String> args = new ArrayList<>();
    for (BeamOption o : options) {
      Object v = spec.findOption("--" + o.property()).getValue();
      if (v instanceof List<?> l) v = l.isEmpty() ? null : String.join(",", l.stream().map(String::valueOf).toList());
      if (v != null) args.add("--" + o.property() + "=" + v);
    }
    return args;
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
      if (o != null) args.addAll(flag(getter, o.getValue()));
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
        args.addAll(flag(getter, getter.invoke(view)));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read option " + property(getter), e);
      }
    }
    return args;
  }

  /**
   * A switch is given bare when on and left out when off (Beam and picocli read both so); one that
   * is on by default is given as --name=false when off.
   */
  private static List<String> flag(Method getter, Object value) {
    String name = property(getter);
    if (Boolean.FALSE.equals(value) && "true".equals(defaultValue(getter))) return List.of("--" + name + "=false");
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
    if (type == boolean.class || type == Boolean.class) {
      // on by default: --name=false turns it off (--name alone stays true, as Beam reads it)
      if ("true".equals(def)) b.arity("0..1").fallbackValue("true");
      else b.arity("0");
    }
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
