package io.streamlab.broker;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The Kafka 4.x broker's jars, which streamlab carries as resources under
 * {@code streamlab-broker-lib/} (they cannot share the app's classpath: kafka-clients 4 vs 3.9).
 * From the shaded jar they are extracted once to a cache directory named by their content.
 */
final class BrokerLibrary {
  private static final String DIR = "streamlab-broker-lib/";

  private BrokerLibrary() {}

  /** The broker's classpath: jar files on disk. */
  static List<Path> classpath() throws IOException {
    Path source;
    try {
      source = Path.of(BrokerLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate streamlab's own classes", e);
    }
    List<Path> jars = Files.isDirectory(source) ? listDirectory(source.resolve(DIR)) : extractFromJar(source);
    if (jars.isEmpty()) {
      throw new IOException("the Kafka broker jars are missing from " + source + " (" + DIR
          + "); rebuild with 'mvn package' from the repository root");
    }
    return jars;
  }

  private static List<Path> listDirectory(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }

  private static List<Path> extractFromJar(Path jarPath) throws IOException {
    try (JarFile jar = new JarFile(jarPath.toFile())) {
      List<JarEntry> entries = new ArrayList<>();
      long fingerprint = 17;
      for (JarEntry e : java.util.Collections.list(jar.entries())) {
        if (e.getName().startsWith(DIR) && e.getName().endsWith(".jar")) {
          entries.add(e);
          fingerprint = fingerprint * 31 + e.getName().hashCode() * 31L + e.getSize();
        }
      }
      if (entries.isEmpty()) return List.of();
      Path cache = Path.of(System.getProperty("user.home"), ".cache", "streamlab",
          "broker-lib-" + Long.toHexString(fingerprint));
      if (!Files.isDirectory(cache)) {
        // Extract beside, then rename: two streamlab processes starting at once both succeed.
        Files.createDirectories(cache.getParent());
        Path tmp = Files.createTempDirectory(cache.getParent(), "extract-");
        for (JarEntry e : entries) {
          try (InputStream in = jar.getInputStream(e)) {
            Files.copy(in, tmp.resolve(Path.of(e.getName()).getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
          }
        }
        try {
          Files.move(tmp, cache, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException | java.nio.file.DirectoryNotEmptyException raced) {
          deleteTree(tmp);
        }
      }
      return listDirectory(cache);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
