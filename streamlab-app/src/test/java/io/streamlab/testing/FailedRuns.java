package io.streamlab.testing;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Keeps what a failed test's runs left in its temporary directory (which JUnit deletes) under
 * target/failed-runs/NAME: the runs' logs, summaries and results, the embedded brokers' logs.
 * Brokers' data directories and large files (DuckDB tables) are left out.
 */
public final class FailedRuns {
  private static final long MAX_FILE_BYTES = 16L << 20;

  private FailedRuns() {}

  /** {@code failure} with where {@code dir}'s files were kept (or why they were not) added to its message. */
  public static AssertionError keep(Path dir, String name, AssertionError failure) {
    Path kept = Path.of("target", "failed-runs", name).toAbsolutePath();
    String where;
    try {
      copy(dir, kept);
      where = "the runs' files are kept in " + kept;
    } catch (IOException e) {
      where = "the runs' files were not kept: " + e;
    }
    return new AssertionError(failure.getMessage() + "\n" + where, failure);
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
        if (!d.equals(from) && d.getFileName().toString().equals("data")) return FileVisitResult.SKIP_SUBTREE;
        Files.createDirectories(to.resolve(from.relativize(d).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
        if (attrs.isRegularFile() && attrs.size() <= MAX_FILE_BYTES) {
          Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.REPLACE_EXISTING);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) {
        return FileVisitResult.CONTINUE; // a file removed while the tree is walked
      }
    });
  }
}
