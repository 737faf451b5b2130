package io.streamlab.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where scenarios come from: the built-in ones (the repository's scenarios/ folder, carried in
 * the jar) by name, or any scenario file by path.
 */
public final class ScenarioCatalog {
  static final String RESOURCE_DIR = "/scenarios";
  static final String SUFFIX = ".properties";

  private ScenarioCatalog() {}

  /** A built-in scenario by name, or a scenario file by path. */
  public static Scenario resolve(String nameOrPath) {
    Path file = Path.of(nameOrPath);
    if (nameOrPath.endsWith(SUFFIX) || nameOrPath.contains("/")) {
      if (!Files.isRegularFile(file)) throw new IllegalArgumentException("scenario file not found: " + nameOrPath);
      try {
        String name = file.getFileName().toString().replaceFirst("\\.properties$", "");
        return ScenarioFile.parse(name, Files.readString(file), file.toString());
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read scenario file " + nameOrPath + ": " + e.getMessage());
      }
    }
    String resource = RESOURCE_DIR + "/" + nameOrPath + SUFFIX;
    try (InputStream in = ScenarioCatalog.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no scenario '" + nameOrPath + "'; built-in: "
            + String.join(", ", builtInNames()) + " (or give a path to a .properties file)");
      }
      return ScenarioFile.parse(nameOrPath, new String(in.readAllBytes(), StandardCharsets.UTF_8),
          "scenarios/" + nameOrPath + SUFFIX);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read built-in scenario " + resource, e);
    }
  }

  /** The built-in scenarios, sorted by name. */
  public static List<Scenario> builtIn() {
    List<Scenario> all = new ArrayList<>();
    for (String name : builtInNames()) all.add(resolve(name));
    return all;
  }

  static List<String> builtInNames() {
    URL dir = ScenarioCatalog.class.getResource(RESOURCE_DIR);
    if (dir == null) return List.of();
    try {
      URI uri = dir.toURI();
      if (uri.getScheme().equals("jar")) {
        FileSystem fs;
        try {
          fs = FileSystems.getFileSystem(uri);
        } catch (FileSystemNotFoundException e) {
          fs = FileSystems.newFileSystem(uri, Map.of());
        }
        return names(fs.getPath(RESOURCE_DIR));
      }
      return names(Path.of(uri));
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("cannot list the built-in scenarios", e);
    }
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(SUFFIX))
          .map(n -> n.substring(0, n.length() - SUFFIX.length())).sorted().toList();
    }
  }
}
