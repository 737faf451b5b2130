package io.streamlab.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing directories streamlab made (run data, checkpoints), deepest entries first. */
public final class Trees {
  private Trees() {}

  /** Deletes {@code root} and everything under it; nothing if it does not exist. */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root)) return;
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** As {@link #delete}, for clean-up that must not fail what it cleans up after: false if it could not. */
  public static boolean deleteQuietly(Path root) {
    try {
      delete(root);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Bytes of the files under {@code root} (0 if it does not exist or cannot be read). */
  public static long size(Path root) {
    if (!Files.exists(root)) return 0;
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }
}
