package io.streamlab.cluster;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The jar a remote Flink cluster receives with the job (Beam's --filesToStage): streamlab's own
 * jar when it runs from one; from a build tree (tests, IDE), its classes directory packed into a
 * jar in the run directory. Dependencies are not staged: TaskManagers of 'streamlab cluster'
 * carry streamlab's classpath already; for another cluster, stage the shaded streamlab.jar.
 */
public final class JobJar {
  private JobJar() {}

  public static Path locate(Path runDir) throws IOException {
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    if (entries.length == 1 && entries[0].endsWith(".jar")) return Path.of(entries[0]).toAbsolutePath();
    for (String e : entries) {
      Path dir = Path.of(e);
      if (Files.isRegularFile(dir.resolve("io/streamlab/cli/Main.class"))) {
        return pack(dir, Files.createDirectories(runDir).resolve("streamlab-job.jar"));
      }
    }
    throw new IllegalStateException("cannot find streamlab's classes on the classpath to stage for the cluster");
  }

  private static Path pack(Path classes, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      // the Kafka broker's jars (resources, ~100 MB) are never needed by a TaskManager
      for (Path f : files.filter(Files::isRegularFile)
          .filter(f -> !classes.relativize(f).startsWith("streamlab-broker-lib")).sorted().toList()) {
        j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
        Files.copy(f, j);
        j.closeEntry();
      }
    }
    return jar;
  }
}
