package io.streamlab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.testing.Commands;
import io.streamlab.testing.Commands.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/collapsed-shares} on an async-profiler collapsed profile written here: threads
 * folded by their numbers, a frame counted once per sample however often it recurs on the stack,
 * self shares from the top frame, and --thread narrowing the shares to some threads' samples.
 */
class CollapsedSharesScriptTest {
  @Test
  void sharesOfThreadsInclusiveAndSelf(@TempDir Path dir) throws Exception {
    Path script = Commands.pythonScript("collapsed-shares");
    Files.writeString(dir.resolve("p.collapsed"), String.join("\n",
        "[generator-0 tid=101];a/Run.produce;a/Codec.encode 30",
        "[generator-1 tid=102];a/Run.produce;a/Sink.send;a/Sink.send;copy 20",
        "[kafka-producer-network-thread | producer-1 tid=103];a/Sender.run;writev 40",
        "[GC Thread#0 tid=104];copy 10", ""));

    Result all = Commands.runPython(dir, script, dir.resolve("p.collapsed").toString());
    assertEquals(0, all.exit(), all.out());
    List<String> lines = all.out().lines().toList();
    assertEquals("100 samples", lines.get(0));
    assertSection(lines, "== threads", List.of(
        "  50.0 %  generator-#", "  40.0 %  kafka-producer-network-thread | producer-#", "  10.0 %  GC Thread##"));
    // Sink.send twice on one stack counts once; "copy" is on two threads' stacks
    assertSection(lines, "== inclusive", List.of("  50.0 %  a/Run.produce", "  40.0 %  a/Sender.run",
        "  40.0 %  writev", "  30.0 %  a/Codec.encode", "  30.0 %  copy", "  20.0 %  a/Sink.send"));
    assertSection(lines, "== self", List.of("  40.0 %  writev", "  30.0 %  a/Codec.encode", "  30.0 %  copy"));

    Result generators = Commands.runPython(dir, script, "--thread=^generator",
        "--top=2", dir.resolve("p.collapsed").toString());
    assertEquals(0, generators.exit(), generators.out());
    List<String> g = generators.out().lines().toList();
    assertEquals("50 samples of threads matching ^generator", g.get(0));
    assertSection(g, "== self", List.of("  60.0 %  a/Codec.encode", "  40.0 %  copy"));

    Result none = Commands.runPython(dir, script, "--thread=nothing",
        dir.resolve("p.collapsed").toString());
    assertTrue(none.exit() != 0, none.out());
  }

  /** The lines of a section, sorted within equal shares (the order of ties is not the script's promise). */
  private static void assertSection(List<String> lines, String title, List<String> expected) {
    int from = lines.indexOf(title) + 1;
    assertTrue(from > 0, title + " missing:\n" + String.join("\n", lines));
    int to = from;
    while (to < lines.size() && !lines.get(to).isBlank()) to++;
    List<String> got = lines.subList(from, to);
    assertEquals(expected.stream().sorted().toList(), got.stream().sorted().toList(), String.join("\n", lines));
  }
}
