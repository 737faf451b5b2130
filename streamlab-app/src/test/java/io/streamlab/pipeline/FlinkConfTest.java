package io.streamlab.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.streamlab.process.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkConfTest {
  @TempDir Path tmp;

  /** Writes a Flink configuration directory, checks it is there, and exits normally. */
  public static final class WriteAndExit {
    public static void main(String[] args) throws Exception {
      Path dir = FlinkConf.writeDir(Map.of("taskmanager.numberOfTaskSlots", "2"));
      if (!Files.readString(dir.resolve("flink-conf.yaml")).contains("taskmanager.numberOfTaskSlots: 2")) System.exit(3);
      System.out.println("wrote " + dir);
    }
  }

  @Test
  void aWrittenConfigurationDirectoryIsGoneWhenTheJvmExits() throws Exception {
    Path childTmp = Files.createDirectory(tmp.resolve("java-tmp"));
    runWriteAndExit(childTmp);
    assertEmpty(childTmp);
  }

  /** A JVM killed with kill -9 runs no exit hook; the next one to write a configuration removes what it left. */
  @Test
  void theDirectoryOfAJvmThatIsGoneIsRemovedByTheNextOne() throws Exception {
    Path childTmp = Files.createDirectory(tmp.resolve("java-tmp"));
    Process gone = new ProcessBuilder("true").start();
    assertTrue(gone.waitFor(1, TimeUnit.MINUTES));
    Path leftover = Files.createDirectory(childTmp.resolve("streamlab-flink-conf-" + gone.pid() + "-1"));
    Files.writeString(leftover.resolve("flink-conf.yaml"), "a: b\n");
    Path alive = Files.createDirectory(childTmp.resolve("streamlab-flink-conf-" + ProcessHandle.current().pid() + "-1"));
    runWriteAndExit(childTmp);
    try (var left = Files.list(childTmp)) {
      assertEquals(List.of(alive), left.toList(), "only the directory of a JVM still running stays");
    }
  }

  private void runWriteAndExit(Path childTmp) throws Exception {
    Path out = tmp.resolve("child.out");
    Process p = JavaProcess.builder(WriteAndExit.class.getName())
        .jvmOptions(List.of("-Xmx128m", "-Djava.io.tmpdir=" + childTmp)).startLoggingTo(out);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the child did not exit");
    assertEquals(0, p.exitValue(), Files.readString(out));
    assertTrue(Files.readString(out).contains("wrote " + childTmp), Files.readString(out));
  }

  private static void assertEmpty(Path dir) throws Exception {
    try (var left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "left behind in java.io.tmpdir");
    }
  }
}
